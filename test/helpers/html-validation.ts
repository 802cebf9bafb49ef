// Validates a whole HTML document against the HTML5 content model (element nesting, attributes,
// document structure) with html-validate's standard and document presets.
import { HtmlValidate } from 'html-validate';

const validator = new HtmlValidate({ extends: ['html-validate:standard', 'html-validate:document'] });

/** Every problem found, as "line:column rule: message"; empty when the document is valid. */
export async function htmlProblems(html: string): Promise<string[]> {
  const report = await validator.validateString(html);
  return report.results.flatMap((result) =>
    result.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`),
  );
}
