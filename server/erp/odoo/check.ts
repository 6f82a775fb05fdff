/**
 * `npm run odoo:check` and the start-up check with ERP=odoo: asks the configured Odoo what it has (modules,
 * `fields_get` of every model the product uses, journal settings, accounts, taxes, the API user's companies,
 * employees) and tells per feature what is present and what is missing, with the fix in one line.
 *
 * 'missing' means the setup is incomplete (a required module, field or journal); 'degraded' that the console works
 * without it but does less (no payment modes, no margins, a user who cannot create contacts...).
 */
import { ERP_CONCURRENCY, featuresFrom, fieldsOf, FEATURE_NAMES, isMissingModelError, mapLimited, type ErpFeatures, type ModelFields } from '../features';
import { ErpError, type Domain, type ErpClient, type ErpContext, type ErpRecord } from '../types';
import type { InstalledLanguages, OdooConnection } from './client';
import {
  CONNECTOR_FIELDS,
  CONNECTOR_MODULE,
  FEATURE_FIELDS,
  FEATURE_REQUIREMENTS,
  JOURNAL_SETTINGS,
  PAYMENT_MODE_MODULES,
  REQUIRED_MODULES,
  standardFields,
} from './requirements';
import { odooLogin, odooVersion, OdooReachError, protocolFor, protocolLabel } from './version';
import { hasPermission } from '../../../shared/domain/permissions';

export type CheckStatus = 'ok' | 'missing' | 'degraded';

export interface CheckItem {
  feature: string;
  status: CheckStatus;
  details: string[];
  /** One line saying what to do; empty when the item is ok. */
  fix: string;
}

export interface CheckReport {
  /** What was checked: the Odoo's URL and database, or the embedded store. */
  target: string;
  /** False when the ERP could not be asked at all (unreachable, not an Odoo, credentials refused). */
  reachable: boolean;
  /** Odoo's server_version, when a connection was given. */
  version?: string;
  /** What the run-time probe would answer (see ../features.ts). */
  features?: ErpFeatures;
  items: CheckItem[];
  /** Checks that were skipped, and why. */
  notes: string[];
}

/** A console account as the app database keeps it. */
export interface ConsoleAccount {
  email: string;
  active: boolean;
  /** Unset: not known (then an employee is expected, as for one who may create contacts). */
  permissions?: string[];
  /** The ERP company ids the account works in. Unset: not checked. */
  companies?: number[];
}

export interface CheckOptions {
  /**
   * The console's accounts: each active one that may create contacts should have an Odoo employee with its e-mail,
   * and the API user every company they name. Unset: not checked.
   */
  accounts?: ConsoleAccount[];
  /** Why `accounts` is not given, shown as a note. */
  accountsNote?: string;
  /** The configured Odoo (ODOO_URL...): its version, the credentials and the API user are checked too. */
  connection?: OdooConnection;
}

const INSTALL_CONNECTOR = `Install the module ${CONNECTOR_MODULE} (odoo/${CONNECTOR_MODULE} in this repository)`;
const GROUPS = [
  { key: 'facturas', label: 'invoices journal' },
  { key: 'gastos', label: 'expenses journal' },
] as const;

const pairId = (value: unknown): number | null => (Array.isArray(value) ? Number(value[0]) : typeof value === 'number' ? value : null);
const pairName = (value: unknown): string => (Array.isArray(value) ? String(value[1]) : '');
const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** Checks the ERP behind `erp` and reports per feature; never throws for what it finds, only for programming errors. */
export async function checkOdoo(erp: ErpClient, options: CheckOptions = {}): Promise<CheckReport> {
  const { connection } = options;
  const where = connection ? connection.url.replace(/\/+$/, '') : 'the embedded store';
  const report: CheckReport = { target: connection ? `${where} (database ${connection.db})` : where, reachable: true, items: [], notes: [] };
  const add = (feature: string, status: CheckStatus, details: string[], fix = '') => report.items.push({ feature, status, details, fix: status === 'ok' ? '' : fix });
  const unreachable = (detail: string, fix: string) => {
    report.reachable = false;
    report.items = [{ feature: 'Odoo', status: 'missing', details: [detail], fix }];
    return report;
  };

  if (connection) {
    const checkUrl = 'Check ODOO_URL, and that Odoo runs and can be reached from this server';
    let stage: 'version' | 'login' = 'version';
    try {
      const version = await odooVersion(connection);
      report.version = version.serverVersion;
      const { major } = version;
      stage = 'login';
      const uid = await odooLogin(connection, protocolFor(connection.protocol, major));
      if (uid === false) {
        return unreachable(
          `Odoo at ${where} refused the login '${connection.login}' on database '${connection.db}'`,
          protocolFor(connection.protocol, major) === 'json2'
            ? "Check ODOO_DB, ODOO_LOGIN and ODOO_API_KEY (an API key from the user's Preferences > Account Security: Odoo 19's JSON-2 takes no password)"
            : "Check ODOO_DB, ODOO_LOGIN and ODOO_API_KEY (an API key from the user's Preferences > Account Security, or the password)",
        );
      }
      const supported = major >= 16 && major <= 19;
      add(
        'Odoo',
        supported ? 'ok' : 'missing',
        [`Odoo ${version.serverVersion} at ${where}, database '${connection.db}', login '${connection.login}' (uid ${uid})`, `Protocol: ${protocolLabel(connection.protocol, major)}`],
        `Odoo ${version.serverVersion} is not supported: use Odoo 16, 17, 18 or 19`,
      );
      if (major >= 19 && connection.protocol === 'jsonrpc') report.notes.push('Odoo 19 deprecates /jsonrpc and logs a warning on every call: unset ODOO_PROTOCOL to speak JSON-2');
    } catch (error) {
      if (!(error instanceof OdooReachError)) throw error;
      if (error.reason === 'unreachable') return unreachable(`Cannot reach Odoo at ${where} (${error.message})`, checkUrl);
      if (error.reason === 'not-odoo') return unreachable(`${where} does not answer like Odoo (${error.message})`, 'Check ODOO_URL: the address of the Odoo server itself, without /web or /odoo');
      return unreachable(
        `Odoo at ${where} answered: ${error.message}`,
        stage === 'login' ? "Check ODOO_DB: the database's name as Odoo's database manager lists it" : checkUrl,
      );
    }
  }

  const timed = timedErp(erp);
  try {
    await checkDatabase(timed.erp, options, report, add);
  } catch (error) {
    if (error instanceof ErpError && error.kind === 'unavailable') {
      // A call that ran out of time is Odoo still busy (its first fields_get after installing modules took 28-36 s
      // here), not Odoo gone: said as such, with how long it was given.
      if (isTimeout(error)) {
        const limit = Math.round((connection?.timeoutMs ?? 20_000) / 1000);
        return unreachable(
          `Odoo is answering slowly (no answer within ${limit} s${timed.slowest && timed.slowest.ms >= 1000 ? `; the slowest answer so far took ${seconds(timed.slowest.ms)} s` : ''})`,
          `Odoo's first calls after installing or upgrading modules are slow: wait a few minutes and run npm run odoo:check again${connection ? ' (or raise ODOO_TIMEOUT_MS)' : ''}`,
        );
      }
      return unreachable(`${connection ? `Odoo at ${where}` : 'The ERP'} stopped answering during the check`, 'Check that Odoo runs, then run npm run odoo:check again');
    }
    if (error instanceof ErpError && error.kind === 'credentials') {
      return unreachable(`${where} refused the configured credentials`, 'Check ODOO_DB, ODOO_LOGIN and ODOO_API_KEY');
    }
    throw error;
  }
  if (timed.slowest && timed.slowest.ms >= SLOW_MS) {
    add(
      'Odoo response time',
      'degraded',
      [`Odoo is answering slowly (${seconds(timed.slowest.ms)} s for ${timed.slowest.call})`],
      "Right after installing or upgrading modules Odoo's first calls are slow: run npm run odoo:check again in a few minutes; if it stays slow, give Odoo more workers or memory",
    );
  }
  return report;
}

/** A call slower than this is reported (a warm Odoo answers the check's calls in well under a second). */
export const SLOW_MS = 10_000;
/** What npm run odoo:check and the start-up check give each call: a fresh Odoo's first calls took 28-36 s. */
export const CHECK_TIMEOUT_MS = 120_000;

const seconds = (ms: number) => Math.round(ms / 1000);

function isTimeout(error: ErpError): boolean {
  const cause = error.cause as { name?: string } | undefined;
  return cause?.name === 'TimeoutError';
}

/** The ERP with the duration of each call noted: the slowest one is reported. */
function timedErp(erp: ErpClient): { erp: ErpClient; slowest: { ms: number; call: string } | null } {
  const timed = { erp, slowest: null as { ms: number; call: string } | null };
  timed.erp = new Proxy(erp, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const started = performance.now();
        const note = () => {
          const ms = performance.now() - started;
          const model = typeof args[0] === 'string' ? ` of ${args[0]}` : '';
          const method = name === 'call' && typeof args[1] === 'string' ? args[1] : String(name);
          if (!timed.slowest || ms > timed.slowest.ms) timed.slowest = { ms, call: `${method}${model}` };
        };
        const result = value.apply(target, args);
        if (result instanceof Promise) return result.finally(note);
        note();
        return result;
      };
    },
  });
  return timed;
}

type Add = (feature: string, status: CheckStatus, details: string[], fix?: string) => void;

async function checkDatabase(erp: ErpClient, options: CheckOptions, report: CheckReport, add: Add) {
  // Odoo 18 dropped mail.message.description: each version is checked for the fields the server asks it.
  const standard = standardFields((await erp.version?.()) ?? 17);
  // 1. What the database has: fields_get of every model the product uses.
  const models = [...new Set([...Object.keys(standard), ...Object.keys(CONNECTOR_FIELDS), ...FEATURE_NAMES.flatMap((name) => Object.keys(FEATURE_FIELDS[name])), 'account.account'])];
  const fields: Record<string, ModelFields> = Object.fromEntries(await mapLimited(models, ERP_CONCURRENCY, async (model) => [model, await fieldsOf(erp, model)] as const));
  const has = (model: string, field?: string) => Boolean(fields[model] && (!field || fields[model]![field]));
  const lacking = (required: Record<string, string[]>, skipAbsentModels: string[] = []) =>
    Object.entries(required).flatMap(([model, names]) => {
      if (!fields[model]) return skipAbsentModels.includes(model) ? [] : [`model ${model}`];
      return names.filter((name) => !fields[model]![name]).map((name) => `${model}.${name}`);
    });
  report.features = featuresFrom(fields);

  // 2. Modules (ir.module.module is readable by administrators only).
  const modules = await moduleStates(erp, report);
  let modulesMissing: string[] = [];
  if (modules) {
    const state = (name: string) => modules.get(name)?.state ?? 'not found';
    modulesMissing = REQUIRED_MODULES.filter((name) => state(name) !== 'installed');
    add(
      'Odoo modules',
      modulesMissing.length ? 'missing' : 'ok',
      modulesMissing.length ? modulesMissing.map((name) => `${name}: ${state(name) === 'not found' ? 'not in the addons path' : state(name)}`) : [`${REQUIRED_MODULES.join(', ')} installed`],
      `Install the Odoo apps ${modulesMissing.join(', ')} (Apps menu; installing ${CONNECTOR_MODULE} installs them too)`,
    );
    const connector = modules.get(CONNECTOR_MODULE);
    if (!connector) {
      add(`Connector module (${CONNECTOR_MODULE})`, 'missing', ['not in the addons path'], `Copy odoo/${CONNECTOR_MODULE} of this repository into Odoo's addons path, update the apps list and install ${CONNECTOR_MODULE}`);
    } else if (connector.state !== 'installed') {
      add(`Connector module (${CONNECTOR_MODULE})`, 'missing', [`state: ${connector.state}`], INSTALL_CONNECTOR);
    } else if (connector.code && connector.installed && connector.code !== connector.installed) {
      add(`Connector module (${CONNECTOR_MODULE})`, 'degraded', [`installed ${connector.installed}, the addons path has ${connector.code}`], `Upgrade the module ${CONNECTOR_MODULE} (Apps > Backoffice connector > Upgrade)`);
    } else {
      add(`Connector module (${CONNECTOR_MODULE})`, 'ok', [`installed${connector.installed ? ` (${connector.installed})` : ''}`]);
    }
  }

  // 3. Standard fields, then the connector's own.
  const standardMissing = lacking(standard);
  add(
    'Standard models and fields',
    standardMissing.length ? 'missing' : 'ok',
    standardMissing.length ? [`lacking: ${standardMissing.join(', ')}`] : [`${Object.keys(standard).length} models, ${Object.values(standard).flat().length} fields present`],
    modulesMissing.length || !modules
      ? `Install the Odoo apps ${REQUIRED_MODULES.join(', ')}`
      : `${report.version ? `Odoo ${report.version}` : 'This ERP'} lacks fields the console uses: report it to the console's maintainers`,
  );
  const connectorMissing = lacking(CONNECTOR_FIELDS, ['project.project']);
  add(
    'Connector fields (uploads, journal settings, notes)',
    connectorMissing.length ? 'missing' : 'ok',
    connectorMissing.length ? [`lacking: ${connectorMissing.join(', ')}`] : ['present'],
    INSTALL_CONNECTOR,
  );

  // 4. The features the server degrades on.
  for (const name of FEATURE_NAMES) {
    const requirement = FEATURE_REQUIREMENTS[name];
    const missing = lacking(FEATURE_FIELDS[name]);
    const details = missing.length ? [`lacking: ${missing.join(', ')}`, `without it ${requirement.without}`] : ['present'];
    if (name === 'paymentModes' && modules && missing.length) {
      details.push(PAYMENT_MODE_MODULES.map((module) => `${module}: ${modules.get(module)?.state ?? 'not in the addons path'}`).join(', '));
    }
    let fix = requirement.fix;
    if (name === 'projects' && has('project.project')) fix = INSTALL_CONNECTOR;
    add(requirement.label, missing.length ? (requirement.required ? 'missing' : 'degraded') : 'ok', details, fix);
  }

  // 4b. The languages the console's users are answered in by Odoo (names of taxes and terms, Odoo's own refusals).
  await checkLanguages(erp, add);

  // 5. The API user and its companies (the console's company ids are these Odoo ids).
  const companies = await apiUserCompanies(erp, options, has, add);

  // 5b. Every company a console account names must be one the API user has: otherwise that account's lists over it
  // are refused (Odoo hides the records of a company its user lacks).
  checkAccountCompanies(options, report, add, companies, options.connection?.login);

  // 6. Per company: journals and accounts of the journal settings, tax rounding, the default sale tax.
  for (const company of companies) {
    const title = `${company.name} (company ${company.id})`;
    if (has('res.company', 'x_facturas_journal_id')) {
      for (const group of GROUPS) {
        await checkJournalSetting(erp, fields, add, {
          title: `${title}: ${group.label}`,
          company,
          group: group.key,
          journal: company[`x_${group.key}_journal_id`],
          account: text(company[`x_${group.key}_account`]),
          unsetFix: `Set a purchase journal in Settings > Companies > ${company.name} > Backoffice (x_${group.key}_journal_id)`,
          accountField: `x_${group.key}_account`,
        });
      }
    }
    if (has('res.company', 'tax_calculation_rounding_method')) {
      const method = text(company.tax_calculation_rounding_method) || 'round_per_line';
      add(`${title}: tax rounding`, 'ok', [
        method === 'round_globally' ? 'round_globally: tax rounded once over the whole document' : `${method}: tax rounded on each line`,
      ]);
    }
    await checkSaleTax(erp, fields, add, title, company);
  }
  if (!has('res.company', 'tax_calculation_rounding_method')) report.notes.push('Tax rounding not checked: res.company has no tax_calculation_rounding_method');

  // 7. Projects that override the journal settings.
  if (has('project.project', 'x_facturas_journal_id') && companies.length) {
    await checkProjects(erp, fields, add, companies);
  }

  // 8. An employee for each active console account (contacts are created in its name).
  await checkEmployees(erp, options, report, add);

}

/**
 * Whether Odoo has Spanish: without it, Spanish users get Odoo's names in the closest language it has. Said when Odoo
 * refused the check's Spanish calls (18 and 19; the client then made them in another language), or, with `ask`, asked.
 */
async function checkLanguages(erp: ErpClient, add: Add, ask = false) {
  const client = erp as ErpClient & { languages?: () => Promise<InstalledLanguages>; knownLanguages?: () => InstalledLanguages | undefined };
  const known = ask && typeof client.languages === 'function' ? await client.languages() : client.knownLanguages?.();
  if (!known) return;
  const { installed, es } = known;
  add(
    'Languages',
    es === 'es_ES' ? 'ok' : 'degraded',
    es === 'es_ES'
      ? [`installed: ${installed.join(', ')}`]
      : [`installed: ${installed.join(', ')}; Spanish (es_ES) is not: the console's Spanish users are sent as ${es}, so Odoo's names (taxes, payment terms) and its own messages come in that language; the console's own texts stay Spanish`],
    'Install Spanish in Odoo (Settings > Languages > Spanish / Español; optional)',
  );
}

interface ModuleState {
  state: string;
  /** The version installed in the database. */
  installed?: string;
  /** The version of the code in the addons path. */
  code?: string;
}

async function moduleStates(erp: ErpClient, report: CheckReport): Promise<Map<string, ModuleState> | null> {
  const names = [...REQUIRED_MODULES, CONNECTOR_MODULE, ...PAYMENT_MODE_MODULES];
  try {
    const rows = await erp.searchRead('ir.module.module', [['name', 'in', names]], { fields: ['name', 'state', 'latest_version', 'installed_version'] });
    return new Map(rows.map((row) => [String(row.name), { state: String(row.state), installed: text(row.latest_version) || undefined, code: text(row.installed_version) || undefined }]));
  } catch (error) {
    if (isMissingModelError(error)) {
      report.notes.push('Module states not checked: ir.module.module is not available (not an Odoo database)');
      return null;
    }
    if (error instanceof ErpError && error.kind === 'access') {
      report.notes.push("Module states not checked: the API user cannot read ir.module.module (Settings access); the fields below tell what is installed");
      return null;
    }
    throw error;
  }
}

async function apiUserCompanies(erp: ErpClient, options: CheckOptions, has: (model: string, field?: string) => boolean, add: Add): Promise<ErpRecord[]> {
  const companyFields = ['name', ...JOURNAL_SETTINGS.filter((name) => has('res.company', name)), ...(has('res.company', 'tax_calculation_rounding_method') ? ['tax_calculation_rounding_method'] : [])];
  let ids: number[] | null = null;
  const login = options.connection?.login;
  if (login) {
    const [user] = await erp.searchRead('res.users', [['login', '=', login]], { fields: ['name', 'company_id', 'company_ids'], limit: 1 });
    if (user) {
      ids = (user.company_ids as number[]) ?? [];
      const companies = ids.length ? await erp.searchRead('res.company', [['id', 'in', ids]], { fields: companyFields, order: 'id' }) : [];
      add(
        `API user ${login}`,
        companies.length ? 'ok' : 'missing',
        [
          `${String(user.name)}, companies: ${companies.map((company) => `${String(company.name)} (id ${company.id})`).join(', ') || 'none'}; current: ${pairName(user.company_id) || 'none'}`,
          "the console's company ids are these Odoo ids",
        ],
        `Give the user ${login} the companies the console works with (Settings > Users > ${String(user.name)} > Allowed Companies)`,
      );
      return companies;
    }
    add(`API user ${login}`, 'degraded', [`no user with login '${login}' is visible (an API key of another user?): checking every company it can read`], `Set ODOO_LOGIN to the login of the user the API key belongs to`);
  }
  const companies = await erp.searchRead('res.company', [], { fields: companyFields, order: 'id' });
  if (!login) add('Companies', companies.length ? 'ok' : 'missing', [companies.map((company) => `${String(company.name)} (id ${company.id})`).join(', ') || 'none'], 'Create a company');
  return companies;
}

interface JournalSetting {
  title: string;
  company: ErpRecord;
  group: string;
  journal: unknown;
  account: string;
  unsetFix: string;
  accountField: string;
  /** Whether an unset journal is fine (a project falls back to its company's settings). */
  optional?: boolean;
}

async function checkJournalSetting(erp: ErpClient, fields: Record<string, ModelFields>, add: Add, setting: JournalSetting) {
  const { title, company, account } = setting;
  const companyId = company.id;
  const context: ErpContext = { allowed_company_ids: [companyId] };
  const journalId = pairId(setting.journal);
  if (!journalId) {
    if (setting.optional) {
      if (account) add(title, 'degraded', [`account ${account} is set without a journal: ignored, the company's settings apply`], setting.unsetFix);
      return;
    }
    add(title, 'missing', ['no journal set: moves of this kind cannot be created in this company'], setting.unsetFix);
    return;
  }
  const journalFields = ['name', 'code', 'type', 'company_id', ...(fields['account.journal']?.default_account_id ? ['default_account_id'] : [])];
  const [journal] = await erp.searchRead('account.journal', [['id', '=', journalId]], { fields: journalFields, context });
  if (!journal) {
    add(title, 'missing', [`journal ${journalId} (${pairName(setting.journal)}) does not exist or cannot be read`], setting.unsetFix);
    return;
  }
  const name = `${String(journal.name)}${journal.code ? ` (${String(journal.code)})` : ''}`;
  const details = [`journal ${name}`];
  if (journal.type !== 'purchase') {
    add(title, 'missing', [...details, `of type ${String(journal.type)}, not purchase`], `Choose a purchase journal for the ${setting.group === 'facturas' ? 'invoices' : 'expenses'} of ${String(company.name)}`);
    return;
  }
  if (pairId(journal.company_id) !== companyId) {
    add(title, 'missing', [...details, `belongs to ${pairName(journal.company_id)}`], `Choose a purchase journal of ${String(company.name)}`);
    return;
  }
  if (fields['account.journal']?.default_account_id) {
    if (!pairId(journal.default_account_id)) {
      add(title, 'missing', [...details, 'no default account: Odoo refuses moves without an account ("Missing required account on accountable line")'], `Give journal ${name} a default account (Accounting > Configuration > Journals > ${String(journal.name)})`);
      return;
    }
    details.push(`default account ${pairName(journal.default_account_id)}`);
  }
  if (!account) {
    details.push("no account code set: the journal's default account is used");
  } else if (!fields['account.account']) {
    details.push(`account ${account} not checked (no chart of accounts here)`);
  } else {
    const found = await findAccount(erp, fields, account, companyId);
    if (!found) {
      add(title, 'missing', [...details, `account ${account} is not in ${String(company.name)}'s chart of accounts`], `Create account ${account} in ${String(company.name)}'s chart of accounts, or set an existing code in ${setting.accountField}`);
      return;
    }
    if (found.deprecated === true) {
      add(title, 'missing', [...details, `account ${account} is deprecated`], `Set a code of an active account in ${setting.accountField}, or un-deprecate account ${account}`);
      return;
    }
    details.push(`account ${String(found.code)} ${String(found.name)}`);
  }
  add(title, 'ok', details);
}

/** The account with that code in the company's chart: `company_id` up to Odoo 17, `company_ids` from 18. */
async function findAccount(erp: ErpClient, fields: Record<string, ModelFields>, code: string, companyId: number): Promise<ErpRecord | undefined> {
  const accountFields = fields['account.account']!;
  const domain: Domain = [['code', '=', code]];
  if (accountFields.company_ids) domain.push(['company_ids', 'in', [companyId]]);
  else if (accountFields.company_id) domain.push(['company_id', '=', companyId]);
  const [found] = await erp.searchRead('account.account', domain, {
    fields: ['code', 'name', ...(accountFields.deprecated ? ['deprecated'] : [])],
    limit: 1,
    context: { allowed_company_ids: [companyId] },
  });
  return found;
}

async function checkSaleTax(erp: ErpClient, fields: Record<string, ModelFields>, add: Add, title: string, company: ErpRecord) {
  const taxFields = fields['account.tax'];
  if (!taxFields) return;
  const domain: Domain = [['type_tax_use', '=', 'sale'], ['amount', '=', 21], ['company_id', '=', company.id]];
  if (taxFields.amount_type) domain.push(['amount_type', '=', 'percent']);
  const scope = taxFields.tax_scope ? ['tax_scope'] : [];
  const taxes = await erp.searchRead('account.tax', domain, { fields: ['name', 'price_include', ...scope].filter((name) => taxFields[name]), order: 'id', context: { allowed_company_ids: [company.id] } });
  add(
    `${title}: sale tax 21%`,
    taxes.length ? 'ok' : 'degraded',
    taxes.length
      ? [taxes.map((tax) => `${String(tax.name)}${tax.tax_scope ? ` (${String(tax.tax_scope)})` : ''}${tax.price_include ? ', price included' : ''}`).join('; ')]
      : ['no active 21% percent sale tax: new order lines get no default tax'],
    `Create a 21% sale tax in ${String(company.name)} (Accounting > Configuration > Taxes), or install the Spanish chart of accounts (l10n_es)`,
  );
}

async function checkProjects(erp: ErpClient, fields: Record<string, ModelFields>, add: Add, companies: ErpRecord[]) {
  const byId = new Map(companies.map((company) => [company.id, company]));
  const projects = await erp.searchRead(
    'project.project',
    [['company_id', 'in', [...byId.keys()]], '|', '|', '|', ...JOURNAL_SETTINGS.map((name): [string, string, unknown] => [name, '!=', false])],
    { fields: ['name', 'company_id', ...JOURNAL_SETTINGS], order: 'id' },
  );
  for (const project of projects) {
    const company = byId.get(pairId(project.company_id) ?? 0);
    if (!company) continue;
    for (const group of GROUPS) {
      const journal = project[`x_${group.key}_journal_id`];
      const account = text(project[`x_${group.key}_account`]);
      if (!pairId(journal) && !account) continue;
      await checkJournalSetting(erp, fields, add, {
        title: `Project ${String(project.name)} (${String(company.name)}): ${group.label}`,
        company,
        group: group.key,
        journal,
        account,
        unsetFix: `Set the ${group.label} of project ${String(project.name)} too, or clear its account (x_${group.key}_account)`,
        accountField: `x_${group.key}_account of project ${String(project.name)}`,
        optional: true,
      });
    }
  }
}

function checkAccountCompanies(options: CheckOptions, report: CheckReport, add: Add, companies: ErpRecord[], login?: string) {
  // Accounts given without their companies (the employee check's callers before issue 28): nothing to compare.
  if (options.accounts && !options.accounts.some((account) => account.companies)) return;
  const accounts = options.accounts?.filter((account) => account.active && account.companies);
  if (!accounts) {
    report.notes.push(options.accountsNote?.replace(/^Employees not checked/, "Console accounts' companies not checked") ?? "Console accounts' companies not checked: the console's accounts were not given");
    return;
  }
  const have = new Set(companies.map((company) => company.id));
  const named = new Map<number, string[]>();
  for (const account of accounts) for (const id of account.companies ?? []) named.set(id, [...(named.get(id) ?? []), account.email]);
  const missing = [...named.keys()].filter((id) => !have.has(id)).sort((a, b) => a - b);
  const who = login ? `the API user ${login}` : 'the ERP';
  if (!missing.length) {
    add("Console accounts' companies", 'ok', [named.size ? `${who} has each of the ${named.size} companies the active console accounts name (${[...named.keys()].sort((a, b) => a - b).join(', ')})` : 'no active console account names a company']);
    return;
  }
  const many = (emails: string[]) => (emails.length > 3 ? `${emails.slice(0, 3).join(', ')} and ${emails.length - 3} more` : emails.join(', '));
  add(
    "Console accounts' companies",
    'missing',
    missing.map((id) => `company ${id}, named by ${many(named.get(id)!)}, is not one ${who} has: their lists over it are refused`),
    login
      ? `Give the user ${login} the companies ${missing.join(', ')} in Odoo (Settings > Users > Allowed Companies), or take them off those console accounts (Users page)`
      : `Take the companies ${missing.join(', ')} off those console accounts (Users page)`,
  );
}

async function checkEmployees(erp: ErpClient, options: CheckOptions, report: CheckReport, add: Add) {
  if (!options.accounts) {
    report.notes.push(options.accountsNote ?? "Employees not checked: the console's accounts were not given");
    return;
  }
  // Only those who may create contacts need an employee: a contact is created in its name.
  const creators = options.accounts.filter((account) => account.active && (!account.permissions || hasPermission(account.permissions, 'contacts.create', () => undefined)));
  const emails = [...new Set(creators.map((account) => account.email.trim().toLowerCase()))].filter(Boolean);
  if (!emails.length) {
    report.notes.push('Employees not checked: no active console account may create contacts');
    return;
  }
  const found = new Set<string>();
  for (let start = 0; start < emails.length; start += 50) {
    const chunk = emails.slice(start, start + 50);
    const terms: Domain = chunk.map((email): [string, string, unknown] => ['work_email', '=ilike', email]);
    const domain: Domain = [['active', '=', true], ...Array<'|'>(chunk.length - 1).fill('|'), ...terms];
    const employees = await erp.searchRead('hr.employee', domain, { fields: ['work_email'] });
    for (const employee of employees) found.add(text(employee.work_email).toLowerCase());
  }
  const without = emails.filter((email) => !found.has(email));
  for (const email of without) {
    add(`Employee for ${email}`, 'degraded', [`no active employee with work e-mail ${email}: this console user cannot create contacts`], `Create an employee with work e-mail ${email} (Employees > New)`);
  }
  if (!without.length) add('Employees', 'ok', [emails.length === 1 ? 'the active console account that may create contacts has an employee' : `each of the ${emails.length} active console accounts that may create contacts has an employee`]);
}

/** The report for a terminal: one line per check, the fix indented on the next line, then a summary line. */
export function formatReport(report: CheckReport): string {
  const lines = [`Odoo check of ${report.target}`];
  const labels: Record<CheckStatus, string> = { ok: 'OK', missing: 'MISSING', degraded: 'DEGRADED' };
  for (const item of report.items) {
    lines.push(`${labels[item.status].padEnd(9)}${item.feature}${item.details.length ? `: ${item.details.join('; ')}` : ''}`);
    if (item.status !== 'ok' && item.fix) lines.push(`         Fix: ${item.fix}`);
  }
  for (const note of report.notes) lines.push(`Note: ${note}`);
  lines.push(summaryLine(report));
  return lines.join('\n');
}

export function summaryLine(report: CheckReport): string {
  const missing = report.items.filter((item) => item.status === 'missing').length;
  const degraded = report.items.filter((item) => item.status === 'degraded').length;
  return missing || degraded ? `${missing} missing, ${degraded} degraded` : 'Nothing missing';
}

/** Whether something required is missing (the check's exit status). */
export function hasMissing(report: CheckReport): boolean {
  return !report.reachable || report.items.some((item) => item.status === 'missing');
}
