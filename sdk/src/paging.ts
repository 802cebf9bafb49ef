// Cursor walking: a list method returns a PageIterator, which fetches page after page as it is
// iterated, following meta.next_cursor.

export interface Page<T> {
  data: T[];
  meta: { next_cursor: string | null };
}

export interface ToArrayOptions {
  /** The most items to collect (required, so a long list cannot fill the memory by surprise). */
  limit: number;
}

/** Every item of a list, page after page: iterate it with `for await`, or collect it with `autoPagingToArray`. */
export class PageIterator<T> implements AsyncIterable<T> {
  constructor(
    private readonly firstCursor: string | undefined,
    private readonly page: (cursor: string | undefined) => Promise<Page<T>>,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    let cursor = this.firstCursor;
    do {
      const result = await this.page(cursor);
      yield* result.data;
      cursor = result.meta.next_cursor ?? undefined;
    } while (cursor);
  }

  /** The first `limit` items (fewer when the list is shorter), fetching only the pages needed. */
  async autoPagingToArray(options: ToArrayOptions): Promise<T[]> {
    if (!Number.isInteger(options?.limit) || options.limit < 0)
      throw new TypeError('autoPagingToArray: limit must be a whole number ≥ 0');
    const out: T[] = [];
    if (options.limit === 0) return out;
    for await (const item of this) {
      out.push(item);
      if (out.length >= options.limit) break;
    }
    return out;
  }
}
