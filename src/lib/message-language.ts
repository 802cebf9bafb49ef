// Which language an error's message is written in, from the request's Accept-Language
// (docs/api-behaviour.md, "Error messages in English"). RFC 9110 negotiation by the negotiator
// library: q-values (q=0 refuses a language), any letter case, `*`, and a range such as `en-GB`
// matching `en`. Ties go to the more exact match, then to the range listed first. What names no
// language we have (absent, `fr`, garbage) keeps the default, Traditional Chinese.
import Negotiator from 'negotiator';
import { DEFAULT_MESSAGE_LANGUAGE, MESSAGE_LANGUAGES, type MessageLanguage } from './error-catalogue.js';

/**
 * What negotiation may pick. `zh` stands for any Chinese range (`zh`, `zh-Hant`, `zh-CN`): the
 * only Chinese we write is Traditional, which such a reader prefers to English. The default
 * comes first so that `*` picks it.
 */
const OFFERED = [DEFAULT_MESSAGE_LANGUAGE, 'zh', ...MESSAGE_LANGUAGES.filter((l) => l !== DEFAULT_MESSAGE_LANGUAGE)];

/** Longer headers are not read: no browser or client sends one, and negotiation cost grows with it. */
const MAX_HEADER_LENGTH = 1024;

export function messageLanguageOf(acceptLanguage: string | string[] | undefined): MessageLanguage {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage;
  if (!header || header.length > MAX_HEADER_LENGTH) return DEFAULT_MESSAGE_LANGUAGE;
  const chosen = new Negotiator({ headers: { 'accept-language': header } }).language(OFFERED);
  return (MESSAGE_LANGUAGES as readonly string[]).includes(chosen ?? '')
    ? (chosen as MessageLanguage)
    : DEFAULT_MESSAGE_LANGUAGE;
}
