// The headers every answer carries, written in one place for the pipeline and for the answers
// given before (or instead of) the pipeline: framework and HTTP parser errors.
import { API_VERSION_DATE } from '../version.js';

export function commonHeaders(requestId: string): Record<string, string> {
  return { 'X-Request-Id': requestId, 'X-Svc-Api-Version': API_VERSION_DATE, 'Cache-Control': 'no-store' };
}
