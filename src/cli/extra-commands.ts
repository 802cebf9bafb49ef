// Command groups contributed by feature modules (posts, categories) are listed here.
import type { AppContext } from '../context.js';

type Group = (ctx: AppContext, sub: string | undefined, args: string[]) => Promise<unknown>;

export const extraCommands: { usage: string; groups: Record<string, Group> } = {
  usage: '',
  groups: {},
};
