/** Frames of the browser host's WebSocket transport. */
import { z } from 'zod';
import type { Result } from './result';

export const clientFrameSchema = z
  .object({
    id: z.number().int().nonnegative(),
    channel: z.string().min(1).max(64),
    request: z.unknown(),
  })
  .strict();

export type ServerFrame =
  | { readonly kind: 'result'; readonly id: number; readonly result: Result<unknown> }
  | { readonly kind: 'event'; readonly event: string; readonly payload: unknown };

/** Query parameter that carries the per-run token. */
export const TOKEN_PARAM = 'token';
/** Path of the WebSocket endpoint. */
export const WS_PATH = '/ws';
