// Answers for requests that never reach a route: a path the router cannot decode or whose
// parameter is too long (Fastify's frameworkErrors), and bytes Node's HTTP parser refuses
// (the server's clientError: oversized or malformed headers, a malformed request line, a
// request that did not arrive in time). Each gets an API error code in the envelope with a
// request id, like every other answer. What cannot be answered is listed in
// docs/api-behaviour.md.
import type { Socket } from 'node:net';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, detail } from '../lib/api-error.js';
import { DEFAULT_MESSAGE_LANGUAGE } from '../lib/error-catalogue.js';
import { looksLikeKey } from '../modules/keys/index.js';
import { commonHeaders } from './common-headers.js';
import { envelopeOf, sendApiError, toApiError } from './error-envelope.js';
import { freshId } from './request-id.js';

/** Fastify's frameworkErrors: the request has an id but has run no hook. */
export function frameworkErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.headers(commonHeaders(String(request.id)));
  // No resource has a path that cannot be decoded, or an id longer than the router accepts.
  if (err.code === 'FST_ERR_BAD_URL' || err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    // Refused before routing, where the access line's hook does not run: logged here instead.
    if (err.code === 'FST_ERR_BAD_URL')
      request.log.info({ method: request.method, status: 404 }, 'path cannot be decoded');
    return sendApiError(request, reply, new ApiError('not_found'));
  }
  request.log.error({ err }, 'unexpected framework error');
  return sendApiError(request, reply, toApiError(err) ?? new ApiError('internal_error'));
}

/** The parser's error, as Node hands it over (rawPacket holds the bytes it was reading). */
interface ParserError extends Error {
  code?: string;
  bytesParsed?: number;
  rawPacket?: Buffer;
}

const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;

/** The name of the header line the parser stopped in, when it can be told; else null. */
function headerAt(err: ParserError): string | null {
  const raw = err.rawPacket;
  if (!Buffer.isBuffer(raw) || typeof err.bytesParsed !== 'number') return null;
  const text = raw.toString('latin1', 0, Math.min(raw.length, err.bytesParsed + 1));
  const lineStart = text.lastIndexOf('\n', Math.max(0, text.length - 2)) + 1;
  if (lineStart === 0) return null; // still in the request line
  const line = text.slice(lineStart);
  const colon = line.indexOf(':');
  const name = colon === -1 ? line.replace(/[\r\n].*$/s, '') : line.slice(0, colon);
  // Only a plain token is echoed; anything else (or text that could be a key) stays unnamed.
  return HEADER_NAME.test(name) && !looksLikeKey(name) ? name : null;
}

/** The API error answering a parser error (the request is never routed, so never a 401 or a 5xx). */
export function apiErrorForParserError(err: ParserError, maxHeaderBytes: number): ApiError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('validation_failed', [
        detail('headers', `the request line and headers must be at most ${maxHeaderBytes} bytes in all`),
      ]);
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
    case 'HPE_INVALID_EOF_STATE': {
      const name = headerAt(err);
      return new ApiError('validation_failed', [
        detail(
          name ?? 'headers',
          name ? 'contains a character not allowed in a header' : 'are not well-formed HTTP headers',
        ),
      ]);
    }
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return new ApiError('validation_failed', [
        detail('Content-Length', 'must be one decimal number, and not sent with Transfer-Encoding'),
      ]);
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return new ApiError('validation_failed', [detail('Transfer-Encoding', 'must end with chunked')]);
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError('validation_failed', [detail('body', 'is not well-formed chunked encoding')]);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      // The API has no 408 (docs/api-behaviour.md); a request that is cut off is incomplete input.
      return new ApiError('validation_failed', [detail('request', 'was not received completely in time')]);
    default:
      // A method, path or request line the parser cannot read: no resource answers to it.
      return new ApiError('not_found');
  }
}

/** The answer still being written on this connection to an earlier request (HTTP/1.1 pipelining), as Node tracks it. */
type InFlight = NodeJS.EventEmitter & { headersSent: boolean; writableFinished: boolean; req?: { complete: boolean } };
const inFlightOf = (socket: Socket) => (socket as Socket & { _httpMessage?: InFlight | null })._httpMessage ?? null;

/**
 * The server's clientError handler (`this` is the Fastify instance). The parser cannot go on
 * after an error, so the answer ends the connection. An answer to an earlier request on the
 * same connection is let finish first (answers keep their order); an error in the body of the
 * request being handled answers that request (the route never receives its body). Then the refusal is written
 * and the socket ended: a FIN after the answer, not a reset, so the client reads it; input
 * still arriving is read and dropped, and the socket is destroyed once the client has closed
 * its side or a grace period has passed.
 */
export function clientErrorHandler(this: unknown, error: ConnectionError, socket: Socket): void {
  const app = this as FastifyInstance;
  const err = error as unknown as ParserError;
  // Already answered: the parser reports the input still arriving, which is dropped.
  if (err.code === 'ECONNRESET' || socket.destroyed || socket.writableEnded) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const apiError = apiErrorForParserError(
    err,
    (app.server as { maxHeaderSize?: number }).maxHeaderSize ?? maxHeaderSize,
  );
  const requestId = freshId();
  // Only the code is logged: the error object carries the raw bytes read, credentials included.
  app.log.info(
    { reqId: requestId, parserError: err.code ?? err.name, statusCode: apiError.status },
    'request refused by the HTTP parser',
  );
  const refuse = () => {
    if (!socket.destroyed) endConnection(socket, rawAnswer(apiError, requestId, isHeadRequest(err)));
  };
  const inFlight = inFlightOf(socket);
  // A request that said `Connection: close` was answered, and bytes still came (the rest of a
  // body its answer did not wait for): nothing more may be answered; they are dropped.
  if (err.code === 'HPE_CLOSED_CONNECTION' && !inFlight) return endConnection(socket);
  if (inFlight && inFlight.req?.complete === false) {
    // The body of the request being answered is at fault: this refusal is its answer, unless
    // its answer has already begun (all that is left is to cut the connection) or been written
    // whole (a 404 given before the body arrived: the connection just closes after it).
    if (inFlight.writableFinished) return endConnection(socket);
    if (inFlight.headersSent) return void socket.destroy();
  } else if (inFlight && !inFlight.writableFinished) {
    // A later request on the connection is at fault: the earlier answer goes out first.
    return void inFlight.once('close', refuse);
  }
  refuse();
}

/**
 * Ends the connection after what was written and `last`, if given (a FIN, not a reset, so the
 * client reads it), reading and dropping input until the client closes or a grace period ends.
 */
function endConnection(socket: Socket, last?: string): void {
  if (last === undefined) socket.end();
  else socket.end(last);
  socket.resume();
  socket.setTimeout(CLOSE_GRACE_MS, () => socket.destroy());
}

/**
 * Whether the refused request is a HEAD, as far as the bytes at hand show: an answer to HEAD has
 * no body. The request line is only known when it is in the packet the parser was reading.
 */
function isHeadRequest(err: ParserError): boolean {
  return Buffer.isBuffer(err.rawPacket) && err.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
}

function rawAnswer(apiError: ApiError, requestId: string, headOnly = false): string {
  const body = JSON.stringify(envelopeOf(apiError, requestId));
  const headers: Record<string, string | number> = {
    ...commonHeaders(requestId),
    'Content-Type': 'application/json; charset=utf-8',
    // No header of the refused bytes is read with confidence, Accept-Language included.
    'Content-Language': DEFAULT_MESSAGE_LANGUAGE,
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  };
  const head = [
    `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${head.join('\r\n')}\r\n\r\n${headOnly ? '' : body}`;
}

/** How long a refused connection may stay half-open waiting for the client to close. */
const CLOSE_GRACE_MS = 5_000;
