/**
 * Issue 29, item 1 for the console's own users: no lost update and always an administrator, under concurrency. Each
 * scenario runs 20 trials on one server (PGlite in memory) and on two server processes sharing one throwaway
 * PostgreSQL 15 (requests of one trial split between them, as a load balancer without affinity would):
 * - different permissions of one user granted and taken away at once by two administrators: none lost;
 * - two god administrators taking god from each other at once: one succeeds, the other is refused, a god remains;
 * - two edits of one user from the same version: one is written, the other refused 409 naming who changed it and when.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, startPostgres } from '../../bench/postgres';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { Sql } from '../../server/db/sql';
import { insertUser } from '../../server/db/users';
import { ALL_PERMISSIONS, GOD } from '../../shared/domain/permissions';
import { freePort, startTestServer, type TestServer } from './helpers';

const TRIALS = 20;
const PUBLIC_HOST = 'backoffice.test';

interface Target {
  port: number;
  host: string;
}

interface Cluster {
  /** Where requests go: one server, or two taking turns. */
  targets: Target[];
  db: Sql;
  token: (userId: number) => Promise<string>;
}

interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string; code?: string };
}

/** One JSON call to a server's port, naming the public host, in the language asked. */
function call(target: Target, token: string, method: string, path: string, body?: unknown, lang = 'es'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port: target.port,
        path,
        method,
        headers: {
          host: target.host,
          authorization: token,
          'accept-language': lang,
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: response.statusCode!, body: text ? JSON.parse(text) : {} });
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** The people of the scenarios: two god administrators and the user they both change. */
interface People {
  ana: { id: number; token: string };
  bruno: { id: number; token: string };
  target: { id: number; email: string };
}

async function people(cluster: Cluster): Promise<People> {
  const make = (email: string, firstName: string, lastName: string, permissions: string[]) =>
    insertUser(cluster.db, { email, firstName, lastName, role: 'admin', permissions, companies: [1, 2, 3], active: true });
  const ana = await make('ana.gil@demo.example', 'Ana', 'Gil', [GOD]);
  const bruno = await make('bruno.paz@demo.example', 'Bruno', 'Paz', [GOD]);
  const target = await make('tere.diaz@demo.example', 'Tere', 'Díaz', []);
  // Nobody else is an active administrator: when Ana and Bruno demote each other, the rule is all that stands.
  await cluster.db.query('UPDATE users SET active = false WHERE NOT (id = ANY($1::int[]))', [[ana.id, bruno.id, target.id]]);
  return {
    ana: { id: ana.id, token: await cluster.token(ana.id) },
    bruno: { id: bruno.id, token: await cluster.token(bruno.id) },
    target: { id: target.id, email: target.email },
  };
}

/** The n-th server of the cluster, taking turns (the same one when there is one). */
const on = (cluster: Cluster, n: number) => cluster.targets[n % cluster.targets.length];

function scenarios(name: string, setUp: () => Promise<{ cluster: Cluster; stop: () => Promise<void> }>) {
  describe(name, () => {
    let cluster: Cluster;
    let stop: (() => Promise<void>) | undefined;
    let who: People;

    beforeAll(async () => {
      ({ cluster, stop } = await setUp());
      who = await people(cluster);
    }, 240_000);
    afterAll(async () => stop?.());

    it('different permissions of one user granted and taken away at once by two administrators: none lost', async () => {
      const [granted1, granted2, taken1, taken2] = ALL_PERMISSIONS.filter((permission) => permission.includes('.')).slice(0, 4);
      let lost = 0;
      for (let trial = 0; trial < TRIALS; trial++) {
        await cluster.db.query('UPDATE users SET permissions = $2 WHERE id = $1', [who.target.id, [taken1, taken2]]);
        const answers = await Promise.all([
          call(on(cluster, 0), who.ana.token, 'POST', '/users/change-permission', { userId: who.target.id, permission: granted1, value: true }),
          call(on(cluster, 1), who.bruno.token, 'POST', '/users/change-permission', { userId: who.target.id, permission: granted2, value: true }),
          call(on(cluster, 1), who.ana.token, 'POST', '/users/change-permission', { userId: who.target.id, permission: taken1, value: false }),
          call(on(cluster, 0), who.bruno.token, 'POST', '/users/change-permission', { userId: who.target.id, permission: taken2, value: false }),
        ]);
        expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
        const [row] = await cluster.db.query<{ permissions: string[] }>('SELECT permissions FROM users WHERE id = $1', [who.target.id]);
        if ([...row.permissions].sort().join() !== [granted1, granted2].sort().join()) lost++;
      }
      console.info(`${name}: permission toggles, ${lost} of ${TRIALS} trials lost a change`);
      expect(lost).toBe(0);
    }, 240_000);

    it('two god administrators taking god from each other at once: exactly one succeeds, a god always remains', async () => {
      const refusals: string[] = [];
      let godless = 0;
      for (let trial = 0; trial < TRIALS; trial++) {
        await cluster.db.query('UPDATE users SET permissions = $2 WHERE id = ANY($1::int[])', [[who.ana.id, who.bruno.id], [GOD]]);
        const answers = await Promise.all([
          call(on(cluster, trial), who.ana.token, 'POST', '/users/change-permission', { userId: who.bruno.id, permission: GOD, value: false }, 'en'),
          call(on(cluster, trial + 1), who.bruno.token, 'POST', '/users/change-permission', { userId: who.ana.id, permission: GOD, value: false }, 'en'),
        ]);
        const [{ gods }] = await cluster.db.query<{ gods: number }>(`SELECT count(*)::int AS gods FROM users WHERE active AND $1 = ANY(permissions)`, [GOD]);
        if (gods === 0) godless++;
        expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
        const refused = answers.find((answer) => answer.status !== 200)!;
        // Refused by the rule, or (when its request arrived after the other's change) for no longer managing users.
        refusals.push(`${refused.status} ${refused.body.code ?? ''}`);
        if (refused.status === 409) expect(refused.body.message).toBe('The last administrator cannot lose this permission');
        else expect(refused.status).toBe(403);
      }
      console.info(`${name}: mutual demotions, ${godless} of ${TRIALS} trials left no god; refusals: ${refusals.join(', ')}`);
      expect(godless).toBe(0);
      // Most of the time both requests were authorised before either wrote: the rule is what refused.
      expect(refusals.filter((refusal) => refusal === '409 users.lastAdmin').length).toBeGreaterThan(0);
    }, 240_000);

    it('two edits of one user from the same version: one written, the other refused 409 naming who changed it and when', async () => {
      await cluster.db.query('UPDATE users SET permissions = $2 WHERE id = ANY($1::int[])', [[who.ana.id, who.bruno.id], [GOD]]);
      let lost = 0;
      for (let trial = 0; trial < TRIALS; trial++) {
        const search = await call(on(cluster, trial), who.ana.token, 'POST', '/users/search', { email: who.target.email });
        expect(search.status).toBe(200);
        const [read] = search.body.users as Array<{ id: number; version: number }>;
        expect(read.id).toBe(who.target.id);
        expect(Number.isInteger(read.version)).toBe(true);
        const edits = [
          { by: who.ana, name: 'Ana Gil', firstName: `Ana ${trial}` },
          { by: who.bruno, name: 'Bruno Paz', firstName: `Bruno ${trial}` },
        ];
        const answers = await Promise.all(
          edits.map((edit, index) => call(on(cluster, trial + index), edit.by.token, 'PUT', `/users/${who.target.id}`, { firstName: edit.firstName, lastName: 'Díaz', version: read.version })),
        );
        const written = answers.findIndex((answer) => answer.status === 204);
        expect(answers.map((answer) => answer.status).sort()).toEqual([204, 409]);
        const refused = answers[1 - written];
        expect(refused.body.code).toBe('users.stale');
        const [row] = await cluster.db.query<{ first_name: string; version: number }>('SELECT first_name, version FROM users WHERE id = $1', [who.target.id]);
        expect(refused.body.message).toMatch(new RegExp(`^Otra persona \\(${edits[written].name}\\) cambió este registro el \\d\\d/\\d\\d/\\d{4} a las \\d\\d:\\d\\d: recárguelo$`));
        if (row.first_name !== edits[written].firstName) lost++;
        expect(row.version).toBe(read.version + 1);
      }
      console.info(`${name}: edits from one version, ${lost} of ${TRIALS} trials lost a change`);
      expect(lost).toBe(0);
    }, 240_000);

    it('an edit without a version (a client older than versions) is still written, as the spec has it: the last write wins', async () => {
      await cluster.db.query('UPDATE users SET permissions = $2 WHERE id = ANY($1::int[])', [[who.ana.id, who.bruno.id], [GOD]]);
      const [before] = await cluster.db.query<{ version: number }>('SELECT version FROM users WHERE id = $1', [who.target.id]);
      const answer = await call(on(cluster, 0), who.bruno.token, 'PUT', `/users/${who.target.id}`, { firstName: 'Teresa', lastName: 'Díaz' });
      expect(answer.status).toBe(204);
      const stale = await call(on(cluster, 1), who.ana.token, 'PUT', `/users/${who.target.id}`, { firstName: 'Tere', lastName: 'Díaz', version: before.version }, 'en');
      expect(stale.status).toBe(409);
      expect(stale.body.message).toMatch(/^Someone else \(Bruno Paz\) changed this record on \d\d\/\d\d\/\d{4} at \d\d:\d\d: reload it$/);
      const [row] = await cluster.db.query<{ first_name: string }>('SELECT first_name FROM users WHERE id = $1', [who.target.id]);
      expect(row.first_name).toBe('Teresa');
    }, 60_000);
  });
}

scenarios('one server (PGlite)', async () => {
  const server: TestServer = await startTestServer();
  const url = new URL(server.url);
  return {
    cluster: { targets: [{ port: Number(url.port), host: url.host }], db: server.app.services.db, token: (id) => server.app.services.sessions.issue(id) },
    stop: () => server.stop(),
  };
});

const external = process.env.TEST_DATABASE_URL;
describe.runIf(Boolean(external) || postgresAvailable())('PostgreSQL', () => {
  scenarios('two servers on one PostgreSQL', async () => {
    const cluster = external ? null : await startPostgres();
    const ports = [await freePort(), await freePort()];
    const dirs = ports.map((_, index) => mkdtempSync(join(tmpdir(), `backoffice-users-${index}-`)));
    const servers: FastifyInstance[] = await Promise.all(
      ports.map((port, index) =>
        buildApp(loadConfig({ DATA_DIR: dirs[index], DATABASE_URL: external ?? cluster!.url, PUBLIC_URL: `http://${PUBLIC_HOST}`, PORT: String(port), LOG_LEVEL: 'silent' }), { seedErp: false }),
      ),
    );
    await Promise.all(servers.map((server, index) => server.listen({ port: ports[index], host: '127.0.0.1' })));
    return {
      cluster: { targets: ports.map((port) => ({ port, host: PUBLIC_HOST })), db: servers[0].services.db, token: (id) => servers[0].services.sessions.issue(id) },
      stop: async () => {
        await Promise.all(servers.map((server) => server.close()));
        cluster?.stop();
        for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});
