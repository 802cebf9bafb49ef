import { PageIterator } from '../paging.js';
import type { RequestOptions } from '../transport.js';
import type { AuditEvent, AuditEventPage, AuditEventQuery } from '../types.js';
import { requestOptions, Resource } from './resource.js';

export class AuditApi extends Resource {
  /** Every audit event matching `query`, newest first, page after page. */
  list(query: AuditEventQuery = {}, options?: RequestOptions): PageIterator<AuditEvent> {
    return new PageIterator(query.cursor, (cursor) =>
      this.listPage({ ...query, ...(cursor === undefined ? {} : { cursor }) }, options),
    );
  }

  async listPage(query: AuditEventQuery = {}, options?: RequestOptions): Promise<AuditEventPage> {
    return this.body({ method: 'GET', path: '/v1/audit/events', query, options: requestOptions(options) });
  }
}
