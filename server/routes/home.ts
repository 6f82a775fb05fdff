/**
 * GET /home/counts (issue 33, item 4): what the home page counts for the signed-in user (server/services/home.ts),
 * only what the user's permissions let them open; nothing at all without a company.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ErpClient } from '../erp/types';
import { homeCounts } from '../services/home';

const count = z.object({ count: z.number().int(), lowerBound: z.boolean().describe('Counted up to 10,000: there are at least `count`') }).optional();

export const homeAnswer = z.object({
  validation: count.describe('Moves waiting for this manager: the validation page over all their journals (moves.validate)'),
  drafts: count.describe("The user's own moves still in draft (moves.list)"),
  ordersToConfirm: count.describe('Quotations waiting for confirmation, sent or not (orders.list)'),
});

export async function homeRoutes(app: FastifyInstance, { erp }: { erp: ErpClient }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/home/counts', { schema: { response: { 200: homeAnswer } } }, async (request) => homeCounts(erp, request.user));
}
