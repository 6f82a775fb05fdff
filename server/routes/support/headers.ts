/**
 * The request headers of the ERP's edits and creates as the routes read them and as the OpenAPI document describes
 * them; the values go to the services and the ERP layer (server/erp/versions.ts, server/erp/whole.ts), which read no
 * request.
 *
 * If-Match (issue 29): a route that honours it declares `config: { ifMatch: true }`: the declaration is what puts the
 * header and its 409 in the document (server/plugins/docs.ts), and reading the header without it is refused, so an edit
 * cannot check versions without saying so to API clients.
 *
 * Idempotency-Key (issue 28): one submission key per form submission, the same on a resend of it.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { versionAsked } from '../../erp/versions';
import { SUBMISSION_KEY } from '../../erp/whole';
import { rule } from '../../input';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route checks the `If-Match` header against the record's version (409 when stale). */
    ifMatch?: boolean;
  }
}

/** The version the client sent back in If-Match (undefined without one: the last write wins). */
export function ifMatchOf(request: FastifyRequest): string | undefined {
  // A programming error, found by the first test of the route: the document would not mention the header.
  if (!request.routeOptions.config.ifMatch) throw new Error(`${request.method} ${request.routeOptions.url} reads If-Match without declaring config.ifMatch`);
  return versionAsked(request.headers['if-match']);
}

/** The header as the OpenAPI document of an edit describes it. */
export const IF_MATCH_DESCRIPTION =
  "The record's `version` as it was read (every search, detail and edit of the record answers it), quoted or not. " +
  'Without it the last write wins; a version that is no longer the record\'s is refused with 409 and nothing is written.';

/** The answers the OpenAPI document lists for an edit that honours If-Match. */
export const IF_MATCH_RESPONSES = {
  // x-response-description: @fastify/swagger's key for the answer's description, kept out of its schema.
  200: { 'x-response-description': 'The record as it is after the edit, with its new `version`.', type: 'object', additionalProperties: true },
  409: {
    'x-response-description':
      'The `If-Match` version is no longer the record\'s: someone changed it since it was read. Nothing is written; the ' +
      'message names who and when (code `records.changedBy`, or `records.changed` when who is not known) and ' +
      '`params.version` is the current version: read the record again and redo the edit. (An edit may also answer ' +
      '409 for a reason of its own, such as a state that no longer allows the change, with that reason\'s code.)',
    type: 'object',
    properties: {
      statusCode: { type: 'integer', enum: [409] },
      error: { type: 'string' },
      message: { type: 'string' },
      code: { type: 'string' },
      params: { type: 'object', additionalProperties: true },
    },
    required: ['statusCode', 'message', 'code'],
  },
} as const;

/** The header of every create route, as the OpenAPI document shows it. */
export const submissionHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .regex(SUBMISSION_KEY, rule('validation.submissionKey', {}, 'must be 8 to 100 letters, digits, - or _ (a UUID)'))
    .optional()
    .describe(
      'One key per form submission (a UUID), the same when the same submission is sent again: a resend after a lost answer ' +
        'returns the record the first one made (same id, same status) instead of making a second one. Without it, each request creates.',
    ),
});

/** The submission key of a create request, if the client sent one (checked by submissionHeaders). */
export function submissionKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  return typeof value === 'string' && value ? value : undefined;
}

