/**
 * Receipts dropped many at once on the Move page (issue 33, item 1): GET, POST /me/move-drafts, GET
 * /me/move-drafts/:id/file and DELETE /me/move-drafts/:id. One file per POST (the body limit and the attachment
 * processes' queue stay those of one move), prepared as a move's file is (typed by its bytes, photos resized, PDFs
 * checked), then read in the background (server/services/draft-reader.ts). Needs moves.create; each user sees only
 * their own drafts (another's: 404). Sending a draft is the ordinary POST /odoo/moves/create, after which the console
 * deletes the draft.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../db';
import type { AttachmentProcessor } from '../extract/files';
import { prepareUpload } from '../extract/files';
import { messageLocale, renderMessage } from '../messages';
import { addMoveDraft, deleteMoveDraft, draftSubmitted, moveDraftFile, moveDrafts, type MoveDraft } from '../services/move-drafts';
import type { DraftReader } from '../services/draft-reader';
import { MOVE_DRAFT_STATUSES, MOVE_DRAFTS_PER_USER, type MoveDraftRow } from '../../shared/domain/move-drafts';
import { idParams, orEmpty } from './support/schemas';
import { whenNotGiven } from '../input';
import { noContent } from './answers';
import { submissionHeaders, submissionKeyOf } from './support/headers';

const PERMISSION = 'moves.create';

const moveType = z.enum(['expense', 'invoice'], { error: whenNotGiven('moveType is required') }).describe('The Move page tab the file was dropped on');

const addBody = z
  .object({
    moveType,
    file: z
      .object({
        name: z.string({ error: whenNotGiven('file.name is required') }).min(1).max(255).describe('The file name as chosen'),
        data: z.string({ error: whenNotGiven('file.data is required') }).describe('The document (PDF, JPEG or PNG) as base64 or a data URL'),
      }, { error: whenNotGiven('file is required') })
      .strict(),
  })
  .strict();

const fields = z
  .looseObject({ importe: z.string().optional(), date: z.string().optional(), provider: z.string().optional(), concept: z.string().optional(), vat: z.string().optional() })
  .describe("What the reading found, as POST /ocr/move/'s result words it");

export const moveDraftAnswer = z.object({
  id: z.number().int(),
  moveType: z.enum(['expense', 'invoice']),
  fileName: z.string(),
  mimetype: z.string(),
  status: z.enum(MOVE_DRAFT_STATUSES).describe('queued: waiting for a reader; reading; read: its fields found; failed: it could not be read'),
  fields: fields.nullable(),
  error: z.string().nullable().describe("Why it could not be read, in the request's language"),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const fileAnswer = z.object({ draft: moveDraftAnswer, data: z.string().describe('The file as a data URL') });

/** A draft as the console shows it: a failed reading's reason in the request's language. */
function shown(draft: MoveDraft, acceptLanguage: string | string[] | undefined): MoveDraftRow {
  const { error, ...rest } = draft;
  return { ...rest, fields: draft.fields as MoveDraftRow['fields'], error: error ? renderMessage(messageLocale(acceptLanguage), error.key, error.params) : null };
}

export async function moveDraftRoutes(app: FastifyInstance, { db, attachments, reader }: { db: Db; attachments: AttachmentProcessor; reader: DraftReader }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const config = { permission: PERMISSION };

  api.get(
    '/me/move-drafts',
    { config, schema: { response: { 200: z.array(moveDraftAnswer) }, summary: "The signed-in user's move drafts, oldest first, with their reading's progress (no files)" } },
    async (request) => (await moveDrafts(db, request.user.id)).map((draft) => shown(draft, request.headers['accept-language'])),
  );

  api.post(
    '/me/move-drafts',
    {
      config: { ...config, ownSubmissionKeys: true },
      schema: {
        headers: submissionHeaders,
        body: orEmpty(addBody),
        response: { 201: moveDraftAnswer },
        summary: 'Keep one file as a move draft, to be read in the background',
        description: `201 with the draft, queued for reading. The file is checked and prepared as a move's file is. At most ${MOVE_DRAFTS_PER_USER} drafts per user (409). Sent again with the same Idempotency-Key: the draft the first sending made (header idempotent-replayed).`,
      },
    },
    async (request, reply) => {
      const key = submissionKeyOf(request);
      // A resend is answered before its file is prepared again (the attachment processes' work); two at once are
      // told apart under the user's lock, in addMoveDraft.
      const earlier = key ? await draftSubmitted(db, request.user.id, key) : undefined;
      const { draft, replayed } = earlier
        ? { draft: earlier, replayed: true }
        : await addMoveDraft(db, request.user.id, request.body.moveType, await prepareUpload(request.body.file.name, request.body.file.data, attachments, undefined, messageLocale(request.headers['accept-language']) === 'en' ? 'en' : 'es'), key);
      if (replayed) void reply.header('idempotent-replayed', 'true');
      else reader.wake();
      return reply.code(201).send(shown(draft, request.headers['accept-language']));
    },
  );

  api.get(
    '/me/move-drafts/:id/file',
    { config, schema: { params: idParams, response: { 200: fileAnswer }, summary: "One of the signed-in user's move drafts with its file (another's: 404)" } },
    async (request) => {
      const { draft, data } = await moveDraftFile(db, request.user.id, Number(request.params.id));
      return { draft: shown(draft, request.headers['accept-language']), data };
    },
  );

  api.delete(
    '/me/move-drafts/:id',
    { config, schema: { params: idParams, response: { 204: noContent }, summary: "Delete one of the signed-in user's move drafts and its file: discarded, or sent as a move (another's: 404)" } },
    async (request, reply) => {
      await deleteMoveDraft(db, request.user.id, Number(request.params.id));
      return reply.code(204).send();
    },
  );
}
