/**
 * Every text the API answers a refusal with (issue 27), by a stable key, in the request's language.
 *
 * Three forms of one message:
 * - `es` and `en`, for a person: what the console shows. It sends `Accept-Language: es|en`; a browser sends its own
 *   languages. Fields a person edits are named as the form labels them ("Correo electrónico: debe ser una dirección de
 *   correo electrónico"), numbers as the language writes them ("al menos 0,01", "at most 1,000,000,000").
 * - `api`, for a script: a request that names neither Spanish nor English (no Accept-Language, or Node's `*`) gets the
 *   API's reference wording, English with the field's path and plain numbers ("amount: amount must be at least 0.01"),
 *   which is what the API always answered, so scripts that read the message keep working. Scripts should read `code`,
 *   `field` and `params` instead, which are the same in every language.
 *
 * A template's `{name}` is the parameter as given (ids, names, lists joined by ", "); `{#name}` is a number written
 * as the language writes it (plain in the API form); `{$name}` an amount of money, with its two decimals; `{field}` is the field's label for a person, its path for a
 * script.
 */

export type MessageLocale = 'es' | 'en' | 'api';
export type ParamValue = string | number | boolean | ReadonlyArray<string | number>;
export type MessageParams = Readonly<Record<string, ParamValue>>;

type Render = (params: MessageParams, format: Formatter) => string;
type Text = string | Render;
interface Entry {
  es: Text;
  en: Text;
  /** The API's reference wording when it is not the English one (field paths, the texts scripts already read). */
  api?: Text;
}

interface Formatter {
  locale: MessageLocale;
  number: (value: number) => string;
  /** An amount of money, with its two decimals. */
  amount: (value: number) => string;
  /** A list as "a, b or c" (the API's form: "a or b or c"). */
  or: (values: ReadonlyArray<string | number>) => string;
}

/** The resources whose generic routes refuse by name ("another employee already has..."), as each language says them. */
const RESOURCE_WORDS: Readonly<Record<string, { es: { the: string; another: string; plural: string }; en: { one: string; plural: string } }>> = {
  employees: { es: { the: 'el empleado', another: 'otro empleado', plural: 'empleados' }, en: { one: 'employee', plural: 'employees' } },
  projects: { es: { the: 'el proyecto', another: 'otro proyecto', plural: 'proyectos' }, en: { one: 'project', plural: 'projects' } },
  journals: { es: { the: 'el diario', another: 'otro diario', plural: 'diarios' }, en: { one: 'journal', plural: 'journals' } },
  companies: { es: { the: 'la empresa', another: 'otra empresa', plural: 'empresas' }, en: { one: 'company', plural: 'companies' } },
  moves: { es: { the: 'el movimiento', another: 'otro movimiento', plural: 'movimientos' }, en: { one: 'move', plural: 'moves' } },
  orders: { es: { the: 'el pedido', another: 'otro pedido', plural: 'pedidos' }, en: { one: 'order', plural: 'orders' } },
  contacts: { es: { the: 'el contacto', another: 'otro contacto', plural: 'contactos' }, en: { one: 'contact', plural: 'contacts' } },
  users: { es: { the: 'el usuario', another: 'otro usuario', plural: 'usuarios' }, en: { one: 'user', plural: 'users' } },
};

export function resourceWords(name: string) {
  return RESOURCE_WORDS[name];
}

const wordsEs = (params: MessageParams) => RESOURCE_WORDS[String(params.resource)]?.es ?? { the: String(params.resource), another: String(params.resource), plural: String(params.resource) };
const wordsEn = (params: MessageParams) => RESOURCE_WORDS[String(params.resource)]?.en ?? { one: String(params.resource), plural: String(params.resource) };

/** Types as the messages name them (zod's names: string, number, int, array...). */
const TYPE_NAMES: Readonly<Record<string, { api: string; en: string; es: string }>> = {
  string: { api: 'text', en: 'text', es: 'texto' },
  number: { api: 'a number', en: 'a number', es: 'un número' },
  int: { api: 'a whole number', en: 'a whole number', es: 'un número entero' },
  boolean: { api: 'true or false', en: 'true or false', es: 'verdadero o falso' },
  array: { api: 'a list', en: 'a list', es: 'una lista' },
  tuple: { api: 'a list', en: 'a list', es: 'una lista' },
  object: { api: 'an object', en: 'an object', es: 'un objeto' },
  record: { api: 'an object', en: 'an object', es: 'un objeto' },
  null: { api: 'null', en: 'null', es: 'null' },
  date: { api: 'a date', en: 'a date', es: 'una fecha' },
};

const typeName = (type: string, locale: MessageLocale) => TYPE_NAMES[type]?.[locale] ?? type;

/** "must be text or a number, not a list": `expected` are type names (t:string) or literal values (v:ASC). */
function typeMessage(locale: MessageLocale): Render {
  return (params, format) => {
    const expected = ((params.expected as ReadonlyArray<string>) ?? []).map((one) => (one.startsWith('t:') ? typeName(one.slice(2), locale) : one.slice(2)));
    const received = typeName(String(params.received), locale);
    const list = expected.length === 1 ? expected[0] : `${expected.slice(0, -1).join(', ')} ${locale === 'es' ? 'o' : 'or'} ${expected[expected.length - 1]}`;
    void format;
    return locale === 'es' ? `debe ser ${list}, no ${received}` : `must be ${list}, not ${received}`;
  };
}

const plural = (count: ParamValue, one: string, many: string) => (count === 1 ? one : many);

/**
 * The catalogue. `validation.*` are rule fragments the answer puts after the field ("Importe: debe ser al menos 0,01");
 * the others are whole sentences.
 */
const CATALOGUE = {
  // Rules of a route's input (zod), worded after the field they concern.
  'validation.required': { en: 'is required', es: 'es obligatorio' },
  'validation.tooBig': { en: 'is too big', es: 'es demasiado grande' },
  'validation.tooSmall': { en: 'is too small', es: 'es demasiado pequeño' },
  'validation.integer': { en: 'must be a whole number', es: 'debe ser un número entero' },
  'validation.type': { en: typeMessage('en'), es: typeMessage('es'), api: typeMessage('api') },
  'validation.empty': { en: 'must not be empty', es: 'no puede estar vacío' },
  'validation.textLength': { en: 'must be {#length} characters long', es: 'debe tener {#length} caracteres' },
  'validation.textMax': { en: 'must be at most {#maximum} characters', es: 'debe tener como máximo {#maximum} caracteres' },
  'validation.textMin': { en: 'must be at least {#minimum} characters', es: 'debe tener al menos {#minimum} caracteres' },
  'validation.itemsExact': { en: 'must have {#count} items', es: 'debe tener {#count} elementos' },
  'validation.itemsMax': {
    en: (p, f) => `must have at most ${f.number(Number(p.maximum))} ${plural(p.maximum, 'item', 'items')}`,
    es: (p, f) => `debe tener como máximo ${f.number(Number(p.maximum))} ${plural(p.maximum, 'elemento', 'elementos')}`,
  },
  'validation.itemsMin': {
    en: (p, f) => `must have at least ${f.number(Number(p.minimum))} ${plural(p.minimum, 'item', 'items')}`,
    es: (p, f) => `debe tener al menos ${f.number(Number(p.minimum))} ${plural(p.minimum, 'elemento', 'elementos')}`,
  },
  'validation.max': { en: 'must be at most {#maximum}', es: 'debe ser como máximo {#maximum}' },
  'validation.min': { en: 'must be at least {#minimum}', es: 'debe ser al menos {#minimum}' },
  'validation.decimals': { en: 'takes at most {decimals} decimals (the precision Odoo keeps)', es: 'admite como mucho {decimals} decimales (la precisión que guarda Odoo)' },
  'validation.lessThan': { en: 'must be less than {#maximum}', es: 'debe ser menor que {#maximum}' },
  'validation.greaterThan': { en: 'must be greater than {#minimum}', es: 'debe ser mayor que {#minimum}' },
  'validation.between': { en: 'must be between {#minimum} and {#maximum}', es: 'debe estar entre {#minimum} y {#maximum}' },
  'validation.positive': { en: 'must be greater than zero', es: 'debe ser mayor que cero' },
  'validation.zeroOrMin': { en: 'must be 0 or at least {#minimum}', es: 'debe ser 0 o al menos {#minimum}' },
  'validation.equals': { en: 'must be {value}', es: 'debe ser {value}' },
  'validation.oneOf': { en: 'must be one of: {values}', es: 'debe ser uno de: {values}' },
  'validation.email': { en: 'must be an e-mail address', es: 'debe ser una dirección de correo electrónico' },
  'validation.url': { en: 'must be a web address', es: 'debe ser una dirección web' },
  'validation.date': { en: 'must be a date YYYY-MM-DD', es: 'debe ser una fecha AAAA-MM-DD' },
  'validation.datetime': { en: 'must be a date and time', es: 'debe ser una fecha y hora' },
  'validation.pattern': { en: 'must match {pattern}', es: 'debe seguir el patrón {pattern}' },
  'validation.format': { en: 'must be {format}', es: 'debe tener el formato {format}' },
  'validation.multipleOf': { en: 'must be a multiple of {#divisor}', es: 'debe ser múltiplo de {#divisor}' },
  'validation.unknownFields': {
    en: (p) => `unknown field${plural((p.keys as ReadonlyArray<string>).length, '', 's')}: ${(p.keys as ReadonlyArray<string>).join(', ')}`,
    es: (p) => `${plural((p.keys as ReadonlyArray<string>).length, 'campo desconocido', 'campos desconocidos')}: ${(p.keys as ReadonlyArray<string>).join(', ')}`,
  },
  'validation.invalid': { en: 'is not valid', es: 'no es válido' },
  'validation.submissionKey': { en: 'must be 8 to 100 letters, digits, - or _ (a UUID)', es: 'debe tener de 8 a 100 letras, cifras, - o _ (un UUID)' },
  'validation.id': { en: 'is not a valid id', es: 'no es un identificador válido' },
  'validation.permission': { en: 'is not a known permission', es: 'no es un permiso conocido' },
  'validation.vat': { en: 'is not a tax id', es: 'no es un NIF válido' },
  'validation.lineBreak': { en: 'must be a single line', es: 'debe ser una sola línea' },
  'validation.controlChars': { en: 'must not contain control characters', es: 'no puede contener caracteres de control' },
  'validation.directionChars': {
    en: 'must not contain characters that change the direction of the text',
    es: 'no puede contener caracteres que cambian la dirección del texto',
  },
  'validation.nul': { en: 'must not contain NUL characters', es: 'no puede contener caracteres NUL' },
  'validation.unicode': { en: 'must be well-formed Unicode', es: 'debe ser texto Unicode bien formado' },

  // The request as a whole.
  'request.protoKeys': {
    en: 'Body must not contain "__proto__" or "constructor.prototype" keys',
    es: 'El cuerpo de la petición no puede contener las claves "__proto__" ni "constructor.prototype"',
  },
  'request.bodyTooLarge': {
    en: 'The request is too large: a search takes at most {#maximum} MB',
    es: 'La petición es demasiado grande: una búsqueda admite como máximo {#maximum} MB',
  },
  'request.tooManyValues': {
    en: 'The request holds too many values (at most {#maximum})',
    es: 'La petición contiene demasiados valores (como máximo {#maximum})',
  },
  'request.tooDeep': {
    en: 'The request nests too deep (at most {#maximum} levels)',
    es: 'La petición tiene demasiados niveles anidados (como máximo {#maximum})',
  },
  'request.invalidJson': { en: 'Body is not valid JSON', es: 'El cuerpo de la petición no es JSON válido' },
  'request.emptyJson': { en: 'Body cannot be empty when content-type is set to application/json', es: 'El cuerpo de la petición no puede estar vacío si su tipo es application/json' },
  'request.mediaType': {
    en: 'The body must be JSON (content-type: application/json), not {given}',
    es: 'El cuerpo de la petición debe ser JSON (content-type: application/json), no {given}',
  },
  'request.pathParameter': { en: 'The address has a {name} that is not valid', es: 'La dirección tiene un {name} que no es válido' },
  'request.routeNotFound': { en: 'Route {method} {path} not found', es: 'No existe la ruta {method} {path}' },
  'request.invalid': { en: 'The request is not valid', es: 'La petición no es válida' },
  'request.unauthorized': { en: 'You must sign in', es: 'Debe iniciar sesión' },
  'request.forbidden': { en: 'You are not allowed to do this', es: 'No tiene permiso para hacer esto' },
  'request.notFound': { en: 'Not found', es: 'No encontrado' },
  'request.conflict': { en: 'This conflicts with the current state: reload and try again', es: 'Entra en conflicto con el estado actual: recargue e inténtelo de nuevo' },
  'request.tooMany': { en: 'Too many requests: try again in a few seconds', es: 'Demasiadas peticiones: inténtelo de nuevo en unos segundos' },
  'request.failed': { en: 'The request could not be completed', es: 'No se ha podido completar la petición' },

  // Sessions and permissions.
  'auth.required': { en: 'Authentication required', es: 'Debe iniciar sesión' },
  'auth.expired': { en: 'Session expired', es: 'La sesión ha caducado: inicie sesión de nuevo' },
  'auth.invalid': { en: 'Invalid or expired session', es: 'La sesión no es válida o ha caducado: inicie sesión de nuevo' },
  'auth.ended': { en: 'Session ended', es: 'La sesión ha terminado: inicie sesión de nuevo' },
  'auth.inactive': { en: 'Account not active', es: 'La cuenta no está activa' },
  'auth.notThisBrowser': {
    en: 'This sign-in was not started in this browser: sign in again',
    es: 'Este inicio de sesión no empezó en este navegador: inicie sesión de nuevo',
  },
  'access.permission': {
    en: (p, f) => `You do not have the permission this action needs (${f.or(p.permissions as ReadonlyArray<string>)})`,
    es: (p, f) => `No tiene el permiso que necesita esta acción (${f.or(p.permissions as ReadonlyArray<string>)})`,
  },
  'access.company': { en: 'You do not have access to this company', es: 'No tiene acceso a esta empresa' },
  'access.companies': { en: 'You do not have access to company {companies}', es: 'No tiene acceso a la empresa {companies}' },
  'access.ownJournals': { en: 'You can only read your own journals', es: 'Solo puede consultar sus propios diarios' },

  // The server and what it depends on.
  'server.internal': { en: 'Internal server error', es: 'Error interno del servidor' },
  'server.failed': { en: 'The server could not complete the request: try again later', es: 'El servidor no ha podido completar la petición: inténtelo de nuevo más tarde' },
  'server.restarting': {
    en: 'The server is restarting: try again in a few seconds',
    es: 'El servidor se está reiniciando: inténtelo de nuevo en unos segundos',
  },
  'db.unavailable': {
    en: 'The database is not answering: try again in a moment',
    es: 'La base de datos no responde: inténtelo de nuevo en un momento',
  },
  'db.readOnly': {
    en: 'The database takes only reads at the moment (a switch of servers): nothing was saved, try again in a few minutes',
    es: 'La base de datos solo admite lecturas en este momento (un cambio de servidor): no se ha guardado nada, inténtelo de nuevo en unos minutos',
  },
  'db.diskFull': {
    en: "The server's disk is full: tell your administrator",
    es: 'El disco del servidor está lleno: avise a su administrador',
  },
  'erp.unavailable': {
    en: 'The ERP is unavailable: try again in a few minutes',
    es: 'El ERP no está disponible: inténtelo de nuevo en unos minutos',
    api: 'ERP unavailable',
  },
  // What the ERP itself refused, as it said it (Odoo answers in the language of the request's context).
  'erp.access': { en: '{message}', es: '{message}' },
  'erp.validation': { en: '{message}', es: '{message}' },
  'erp.user': { en: '{message}', es: '{message}' },
  'erp.missing': { en: '{message}', es: '{message}' },
  // The server's own setup, not the user's permissions (502): the administrator fixes it (README, Odoo).
  'erp.credentials': {
    en: "The ERP refused the server's credentials: tell your administrator",
    es: 'El ERP ha rechazado las credenciales del servidor: avise a su administrador',
  },
  'erp.companyRefused': {
    en: 'The ERP does not give the server access to company {companies}: tell your administrator',
    es: 'El ERP no da acceso al servidor a la empresa {companies}: avise a su administrador',
  },
  'request.keyReused': {
    en: 'This Idempotency-Key was sent before with another request: send a new key with a new request',
    es: 'Esta clave de envío (Idempotency-Key) ya se envió con otra petición: envíe una clave nueva con cada petición nueva',
  },
  'request.inProgress': {
    en: 'This request is still being carried out: wait a moment and look again before sending it again',
    es: 'Esta petición aún se está realizando: espere un momento y compruébelo antes de enviarla de nuevo',
  },
  'erp.keyInUse': {
    en: 'This submission key was already used for another record: send the form again as a new submission',
    es: 'Esta clave de envío ya se usó para otro registro: envíe el formulario de nuevo como un envío nuevo',
  },
  'erp.setup': {
    en: "Odoo's configuration refused what the server asked: tell your administrator ({message})",
    es: 'La configuración de Odoo ha rechazado lo que pidió el servidor: avise a su administrador ({message})',
  },
  // Odoo refusals whose cause is known (server/erp/odoo/errors.ts): each names the fix; Odoo's own text goes to the log.
  'erp.senderEmail': {
    en: "Odoo cannot send a message as the server's API user because that user has no e-mail address: tell your administrator (in Odoo, Settings > Users > the API user > Email)",
    es: 'Odoo no puede enviar mensajes como el usuario de la API del servidor porque no tiene correo electrónico: avise a su administrador (en Odoo, Ajustes > Usuarios > el usuario de la API > Correo electrónico)',
  },
  'erp.missingAccount': {
    en: "Odoo has no account for this bill's line: tell your administrator (give the purchase journal a default account, or set an account code in Settings > Companies > Backoffice)",
    es: 'Odoo no tiene cuenta contable para la línea de esta factura: avise a su administrador (ponga una cuenta por defecto al diario de compras, o un código de cuenta en Ajustes > Empresas > Backoffice)',
  },
  'erp.lockDate': {
    en: 'Odoo has closed the accounting period of that date: use a later date, or ask your accountants to move the lock date',
    es: 'Odoo tiene cerrado el periodo contable de esa fecha: use una fecha posterior, o pida a contabilidad que cambie la fecha de bloqueo',
  },
  'erp.accessModel': {
    en: "Odoo does not let the server's API user do this ({model}): tell your administrator (the API user's access rights, README step 2)",
    es: 'Odoo no deja hacer esto al usuario de la API del servidor ({model}): avise a su administrador (permisos del usuario de la API, paso 2 del README)',
  },
  'erp.accessRefused': {
    en: "Odoo does not let the server's API user do this: tell your administrator (the API user's access rights, README step 2)",
    es: 'Odoo no deja hacer esto al usuario de la API del servidor: avise a su administrador (permisos del usuario de la API, paso 2 del README)',
  },
  'erp.companyWriteRefused': {
    en: "Odoo does not let the server write in {company}: tell your administrator (in Odoo, give the API user that company and the rights of README step 2)",
    es: 'Odoo no deja al servidor escribir en {company}: avise a su administrador (en Odoo, dé al usuario de la API esa empresa y los permisos del paso 2 del README)',
  },
  'erp.foreignLink': { en: 'The ERP gave a link outside itself', es: 'El ERP ha dado un enlace fuera de sí mismo' },
  'list.badCursor': {
    en: '{field} must be the next cursor of a previous page of this list',
    es: '{field} debe ser el cursor siguiente de una página anterior de esta lista',
  },
  'list.cursorOrder': {
    en: '{field} continues a list in its default order only: search again from the first page',
    es: '{field} solo continúa una lista en su orden predeterminado: busque de nuevo desde la primera página',
  },

  // Files and document reading.
  'file.tooLarge': { en: '[Error] File too large', es: '[Error] File too large' },
  'file.empty': { en: 'The file is empty', es: 'El archivo está vacío' },
  'file.notBase64': { en: 'The file is not valid base64 data', es: 'El archivo no son datos base64 válidos' },
  'file.unsupported': {
    en: 'Failed to load file. Unsupported file format or file corrupted.',
    es: 'No se ha podido cargar el archivo. Formato no admitido o archivo dañado.',
  },
  'file.tooManyPixels': {
    en: 'The image is {width} x {height} pixels ({#megapixels} megapixels): at most {#maxMegapixels} megapixels can be read; send a smaller photo',
    es: 'La imagen tiene {width} x {height} píxeles ({#megapixels} megapíxeles): se pueden leer como máximo {#maxMegapixels} megapíxeles; envíe una foto más pequeña',
  },
  'extract.pdfImageTooLarge': {
    en: 'The PDF holds an image of {width} x {height} pixels ({#megapixels} megapixels): at most {#maxMegapixels} megapixels can be read; send a smaller scan or a PDF with text',
    es: 'El PDF contiene una imagen de {width} x {height} píxeles ({#megapixels} megapíxeles): se pueden leer como máximo {#maxMegapixels} megapíxeles; envíe un escaneo más pequeño o un PDF con texto',
  },
  'extract.tooManyPages': {
    en: 'The PDF has {#pages} pages: at most {#maximum} can be read; send the invoice or receipt on its own',
    es: 'El PDF tiene {#pages} páginas: se pueden leer como máximo {#maximum}; envíe la factura o el tique por separado',
  },
  'extract.notBase64': { en: 'file must be the document as base64 (or a data URL)', es: 'El archivo debe ser el documento en base64 (o una data URL)' },
  'extract.heic': {
    en: 'HEIC photos cannot be read here: send a JPEG or PNG (on an iPhone, Settings > Camera > Formats > Most Compatible)',
    es: 'Las fotos HEIC no se pueden leer aquí: envíe un JPEG o PNG (en un iPhone, Ajustes > Cámara > Formatos > Más compatible)',
  },
  'extract.unsupportedType': { en: 'Unsupported file type: send a PDF, JPEG or PNG', es: 'Tipo de archivo no admitido: envíe un PDF, JPEG o PNG' },
  'extract.pdfDamaged': { en: 'The PDF could not be read: it is damaged or protected', es: 'No se ha podido leer el PDF: está dañado o protegido' },
  'extract.pdfEmpty': {
    en: 'This PDF has neither text nor a scanned page to read: send a photo or an image of the document instead',
    es: 'Este PDF no tiene texto ni una página escaneada que leer: envíe en su lugar una foto o una imagen del documento',
  },
  'extract.imageDamaged': {
    en: 'The image could not be read: it is damaged or not a photo of a document',
    es: 'No se ha podido leer la imagen: está dañada o no es la foto de un documento',
  },
  'extract.unreadable': {
    en: 'The document could not be read: it is damaged or not a document',
    es: 'No se ha podido leer el documento: está dañado o no es un documento',
  },
  'extract.failed': { en: 'The document could not be read', es: 'No se ha podido leer el documento' },

  // Supplier e-invoices (issue 55): FacturaE, UBL / Peppol, CII / Factur-X read from their XML.
  'einvoice.notEInvoice': {
    en: 'This XML is not an e-invoice we can read (FacturaE 3.2.x, UBL 2.1, CII).',
    es: 'Este XML no es una factura electrónica que sepamos leer (FacturaE 3.2.x, UBL 2.1, CII).',
  },
  'einvoice.pdfWithout': {
    en: 'This PDF carries no e-invoice (no Factur-X, ZUGFeRD or XRechnung XML inside it).',
    es: 'Este PDF no lleva dentro una factura electrónica (ningún XML Factur-X, ZUGFeRD o XRechnung).',
  },
  'einvoice.xmlTooLarge': {
    en: 'The e-invoice XML is larger than {#maximum} MB, the most that is read: send it on its own, without attachments inside it.',
    es: 'El XML de la factura electrónica ocupa más de {#maximum} MB, lo máximo que se lee: envíelo solo, sin adjuntos dentro.',
  },
  'einvoice.xmlDoctype': {
    en: 'The XML declares a DOCTYPE or entities, which e-invoices never do: refused, as it could expand without end or read other files.',
    es: 'El XML declara un DOCTYPE o entidades, algo que una factura electrónica nunca hace: se rechaza, porque podría crecer sin fin o leer otros archivos.',
  },
  'einvoice.xmlTooDeep': {
    en: 'The XML nests its elements more than {#maximum} levels deep, the most that is read: refused, no e-invoice is shaped like that.',
    es: 'El XML anida sus elementos más de {#maximum} niveles, lo máximo que se lee: se rechaza, ninguna factura electrónica tiene esa forma.',
  },
  'einvoice.xmlTooManyElements': {
    en: 'The XML has more than {#maximum} elements, the most that is read: refused, send the invoice on its own.',
    es: 'El XML tiene más de {#maximum} elementos, lo máximo que se lee: se rechaza, envíe la factura por separado.',
  },
  'einvoice.xmlMalformed': {
    en: 'The file is not well-formed XML: it is damaged or cut short.',
    es: 'El archivo no es un XML bien formado: está dañado o incompleto.',
  },
  'einvoice.manyInvoices': {
    en: 'This FacturaE holds {#count} invoices: send each invoice in a file of its own.',
    es: 'Esta FacturaE contiene {#count} facturas: envíe cada factura en su propio archivo.',
  },
  'einvoice.missing': {
    en: 'The e-invoice lacks {what}, which every invoice must state.',
    es: 'A la factura electrónica le falta {what}, que toda factura debe indicar.',
  },
  'einvoice.linesMismatch': {
    en: 'The lines add up to {$computed} before taxes, but the invoice states {$stated}.',
    es: 'Las líneas suman {$computed} antes de impuestos, pero la factura indica {$stated}.',
  },
  'einvoice.taxesMismatch': {
    en: 'The taxes add up to {$computed}, but the invoice states {$stated} of tax.',
    es: 'Los impuestos suman {$computed}, pero la factura indica {$stated} de impuestos.',
  },
  'einvoice.totalMismatch': {
    en: 'Base and taxes make {$computed}, but the invoice states a total of {$stated}.',
    es: 'Base e impuestos suman {$computed}, pero la factura indica un total de {$stated}.',
  },
  'einvoice.payableMismatch': {
    en: 'The total less what was paid in advance is {$computed}, but the invoice states {$stated} to pay.',
    es: 'El total menos lo ya pagado es {$computed}, pero la factura indica {$stated} a pagar.',
  },
  'extract.busy': { en: 'The document reader is busy: try again in a few seconds', es: 'El lector de documentos está ocupado: inténtelo de nuevo en unos segundos' },
  'extract.memory': {
    en: 'The document needs more memory than allowed to read: send a smaller photo or a PDF with text',
    es: 'Leer el documento necesita más memoria de la permitida: envíe una foto más pequeña o un PDF con texto',
  },
  'extract.timeout': {
    en: 'The document took longer than {#seconds} s to read: try a sharper or smaller photo',
    es: 'Leer el documento ha tardado más de {#seconds} s: pruebe con una foto más nítida o más pequeña',
  },
  'extract.stalled': {
    en: 'The document reader did not finish in {#seconds} s (the server is overloaded or the reader stuck): try again in a minute',
    es: 'El lector de documentos no ha terminado en {#seconds} s (el servidor está sobrecargado o el lector atascado): inténtelo de nuevo en un minuto',
  },
  'extract.crashed': {
    en: 'The document reader stopped unexpectedly while reading this document: try again, or send a smaller photo or a PDF with text',
    es: 'El lector de documentos se ha detenido inesperadamente al leer este documento: inténtelo de nuevo, o envíe una foto más pequeña o un PDF con texto',
  },
  'extract.start': { en: 'The document reader could not start: try again in a few seconds', es: 'El lector de documentos no ha podido arrancar: inténtelo de nuevo en unos segundos' },
  'extract.closed': { en: 'The document reader is shutting down: try again in a few seconds', es: 'El lector de documentos se está deteniendo: inténtelo de nuevo en unos segundos' },
  'extract.noJob': { en: 'No such reading: it ended over a minute ago, or it is not yours', es: 'No existe esa lectura: terminó hace más de un minuto, o no es suya' },
  'extract.abandoned': { en: 'The request was abandoned before its document was read', es: 'La petición se abandonó antes de leer su documento' },
  // Attachments prepared for storing (resized, checked) in their own processes, with the readers' limits.
  'attachment.busy': {
    en: 'Too many files are being prepared right now: try again in a few seconds',
    es: 'Se están preparando demasiados archivos en este momento: inténtelo de nuevo en unos segundos',
  },
  'attachment.timeout': {
    en: 'Preparing the file took longer than {#seconds} s: send a smaller photo',
    es: 'Preparar el archivo ha tardado más de {#seconds} s: envíe una foto más pequeña',
  },
  'attachment.crashed': {
    en: 'The file could not be prepared: the process preparing it stopped unexpectedly; try again, or send a smaller photo',
    es: 'No se ha podido preparar el archivo: el proceso que lo preparaba se ha detenido inesperadamente; inténtelo de nuevo, o envíe una foto más pequeña',
  },
  'attachment.start': { en: 'Files cannot be prepared right now: try again in a few seconds', es: 'Ahora no se pueden preparar archivos: inténtelo de nuevo en unos segundos' },
  'attachment.closed': { en: 'The server is shutting down: try again in a few seconds', es: 'El servidor se está deteniendo: inténtelo de nuevo en unos segundos' },
  'attachment.activeContent': {
    en: '{field}: the PDF holds active content ({what}), which is not accepted: print it to a new PDF or scan it, and send that',
    es: '{field}: el PDF contiene contenido activo ({what}), que no se admite: imprímalo en un PDF nuevo o escanéelo, y envíe ese',
  },
  // A stored PDF that a check finds unsafe to open inline (stored-files.ts): offered as a download only.
  'attachment.storedActive': {
    en: 'This PDF is not shown here: it holds active content ({what}). Download it only if you trust whoever sent it',
    es: 'Este PDF no se muestra aquí: contiene contenido activo ({what}). Descárguelo solo si confía en quien lo envió',
  },
  'attachment.storedHeavy': {
    en: 'This PDF is not shown here: it exceeds the pages or memory a document may use. You can download it',
    es: 'Este PDF no se muestra aquí: supera las páginas o la memoria que puede ocupar un documento. Puede descargarlo',
  },

  // Resources served from their declarations (employees, projects...).
  'resources.notFound': {
    en: (p) => `${wordsEn(p).one} ${p.id} not found`.replace(/^./, (first) => first.toUpperCase()),
    es: (p) => `No se ha encontrado ${wordsEs(p).the} ${p.id}`,
    api: '{resource} {id} not found',
  },
  'resources.shared': {
    en: (p) => `${wordsEn(p).one} ${p.id} is shared by every company and cannot be changed here`.replace(/^./, (first) => first.toUpperCase()),
    es: (p) => `Todas las empresas comparten ${wordsEs(p).the} ${p.id}: no se puede cambiar aquí`,
    api: '{resource} {id} is shared by every company and cannot be changed here',
  },
  'resources.required': { en: '{field} is required', es: 'El campo {field} es obligatorio' },
  'resources.unique': {
    en: (p) => `${p.field}: another ${wordsEn(p).one} already has ${p.value}`,
    es: (p) => `${p.field}: ${wordsEs(p).another} ya tiene ${p.value}`,
    api: '{field}: another of {resource} already has {value}',
  },
  'resources.companyNotYours': { en: '{field}: company {ids} is not one of yours', es: '{field}: la empresa {ids} no es una de las suyas' },
  'resources.referenceNotFound': {
    en: (p) => `${p.field}: ${wordsEn({ resource: p.target }).one} ${(p.ids as ReadonlyArray<number>).join(', ')} not found`,
    es: (p) => `${p.field}: no se ha encontrado ${wordsEs({ resource: p.target }).the} ${(p.ids as ReadonlyArray<number>).join(', ')}`,
    api: '{field}: {target} {ids} not found',
  },
  'resources.mustBe': { en: '{field} must be {value}', es: '{field} debe ser {value}' },

  // Moves.
  'moves.notFound': { en: 'Move {id} not found', es: 'No se ha encontrado el movimiento {id}' },
  'moves.accountMissing': {
    en: 'The account {code} does not exist in the chart of accounts of {company}',
    es: 'La cuenta {code} no existe en el plan contable de {company}',
  },
  'moves.attachmentIds': {
    en: '{field} must be a comma-separated list of up to 50 attachment ids',
    es: '{field} debe ser una lista de hasta 50 identificadores de adjuntos separados por comas',
  },
  'moves.attachmentNotFound': { en: 'Attachment {ids} not found', es: 'No se ha encontrado el adjunto {ids}' },
  // An edit of a record someone else changed since it was read (issue 29): who (this server's user, or the Odoo user
  // who wrote it there) and when, in the server's time zone.
  'records.changedBy': {
    en: 'Someone else ({who}) changed this record on {date} at {time}: reload it',
    es: 'Otra persona ({who}) cambió este registro el {date} a las {time}: recárguelo',
  },
  'records.changed': {
    en: 'Someone else changed this record on {date} at {time}: reload it',
    es: 'Otra persona cambió este registro el {date} a las {time}: recárguelo',
  },
  'moves.notDraftChange': { en: 'Only a draft move can be changed', es: 'Solo se puede cambiar un movimiento en borrador' },
  'moves.notDraftDelete': { en: 'Only a draft move can be deleted', es: 'Solo se puede eliminar un movimiento en borrador' },
  'moves.incorrectDate': {
    en: 'Incorrect expense/subsistence or invoice date, please check the date entered',
    es: 'Fecha de gasto/dieta o factura incorrecta, revise la fecha introducida',
  },
  'moves.amountSeveralLines': {
    en: 'The amount of a move with several lines cannot be changed here',
    es: 'El importe de un movimiento con varias líneas no se puede cambiar aquí',
  },
  'moves.cancelledDecision': { en: 'A cancelled move cannot be validated or rejected', es: 'Un movimiento cancelado no se puede validar ni rechazar' },
  'moves.decisionChanged': {
    en: 'The decision on this move has changed since (someone else decided it): nothing was undone',
    es: 'La decisión sobre este movimiento ha cambiado desde entonces (otra persona lo ha decidido): no se ha deshecho nada',
  },
  'moves.postedDecision': { en: 'The decision on a posted move cannot be changed', es: 'La decisión sobre un movimiento publicado no se puede cambiar' },
  'moves.queueFilter': { en: "{field} must be 'to_validate'", es: "{field} debe ser 'to_validate'" },
  'moves.journalIds': {
    en: '{field} must be a comma-separated list of up to 50 journal ids',
    es: '{field} debe ser una lista de hasta 50 identificadores de diarios separados por comas',
  },
  'moves.journalNotFound': { en: 'Journal {ids} not found', es: 'No se ha encontrado el diario {ids}' },
  'moves.paymentMethodRequired': { en: 'The payment method is required', es: 'El método de pago es obligatorio' },
  'moves.invoiceOnly': { en: 'Lines and refunds are for invoices only, not expenses', es: 'Las líneas y los abonos son solo para facturas, no para gastos' },
  'moves.linesTotal': {
    en: 'The lines and their VAT make {$computed}, but the amount is {$amount}: they must make the same total',
    es: 'Las líneas con su IVA suman {$computed}, pero el importe es {$amount}: deben dar el mismo total',
  },
  'moves.taxMissing': {
    en: '{company} has no purchase VAT of {#rate} %: create it in Odoo, or register the invoice by its total',
    es: '{company} no tiene un IVA soportado del {#rate} %: créelo en Odoo, o registre la factura por su total',
  },
  'moves.companyNotFound': { en: 'Company {id} not found', es: 'No se ha encontrado la empresa {id}' },
  'moves.projectNotInCompany': { en: 'Project {project} does not belong to {company}', es: 'El proyecto {project} no pertenece a {company}' },
  'moves.noExpenseJournal': { en: '{company} has no journal for expenses', es: '{company} no tiene diario de gastos' },
  'moves.noInvoiceJournal': { en: '{company} has no journal for invoices', es: '{company} no tiene diario de facturas' },
  'moves.supplierNotFound': { en: 'Supplier {id} not found in {company}', es: 'No se ha encontrado el proveedor {id} en {company}' },
  'moves.possibleDuplicate': {
    en: 'This document may already be registered: {moves}',
    es: 'Puede que este documento ya esté registrado: {moves}',
    api: 'This document may already be registered: {moves}. Send it again with ?onDuplicate=save to register it anyway',
  },
  'moves.savedAnyway': { en: 'Registered although it may repeat {moves}', es: 'Registrado aunque puede repetir {moves}' },
  'moves.duplicateReason.file': { en: 'same file', es: 'mismo archivo' },
  'moves.duplicateReason.reference': { en: 'same supplier and reference', es: 'mismo proveedor y referencia' },
  'moves.duplicateReason.amount': { en: 'same supplier, amount and date', es: 'mismo proveedor, importe y fecha' },
  'moves.draftLabel': { en: 'draft {id}', es: 'borrador {id}' },

  // Sales orders.
  'orders.notFound': { en: 'Order {id} not found', es: 'No se ha encontrado el pedido {id}' },
  'orders.productNotFound': { en: 'Product {ids} not found', es: 'No se ha encontrado el producto {ids}' },
  'orders.customerNotFound': { en: 'Customer {id} not found', es: 'No se ha encontrado el cliente {id}' },
  'orders.pricelistNotFound': { en: 'Pricelist {id} not found', es: 'No se ha encontrado la tarifa {id}' },
  'orders.paymentTermNotFound': { en: 'Payment term {id} not found', es: 'No se ha encontrado el plazo de pago {id}' },
  'orders.paymentModeNotFound': { en: 'Payment mode {id} not found', es: 'No se ha encontrado el modo de pago {id}' },
  'orders.incorrectDate': { en: 'Incorrect quotation date, please check the date entered', es: 'Fecha de presupuesto incorrecta, revise la fecha introducida' },
  'orders.taxNotFound': { en: 'Tax {ids} not found', es: 'No se ha encontrado el impuesto {ids}' },
  'orders.notEditable': { en: 'A confirmed or cancelled order cannot be changed', es: 'Un pedido confirmado o cancelado no se puede cambiar' },
  'orders.lineNotFound': { en: 'Line {ids} not found in order {order}', es: 'No se ha encontrado la línea {ids} en el pedido {order}' },
  'orders.lineTwice': { en: 'A line is sent twice', es: 'Una línea se ha enviado dos veces' },
  'orders.lineNeedsProduct': { en: 'Mandatory field: every line needs a product', es: 'Campo obligatorio: cada línea necesita un producto' },
  'orders.alreadyConfirmed': { en: 'The order is already confirmed', es: 'El pedido ya está confirmado' },
  // Odoo's own texts (sale.order action_confirm and unlink), as its Spanish translation has them.
  'orders.notConfirmable': {
    en: 'Some orders are not in a state requiring confirmation.',
    es: 'Algunos pedidos no están en un estado que requiera confirmación.',
  },
  'orders.notDeletable': {
    en: 'You can not delete a sent quotation or a confirmed sales order. You must first cancel it.',
    es: 'No puede eliminar un presupuesto enviado o un pedido de venta confirmado. Primero debe cancelarlo.',
  },
  'orders.printLang': { en: "{field} must be 'en' or 'es'", es: "{field} debe ser 'en' o 'es'" },
  'orders.printLink': {
    en: 'This print link is not valid or has expired: print the order again from the console',
    es: 'Este enlace de impresión no es válido o ha caducado: vuelva a imprimir el pedido desde la consola',
  },

  // Contacts.
  'contacts.notAnEmployee': {
    en: 'The user was not found in the employee module. Please contact the IT team.',
    es: 'No se ha encontrado al usuario en el módulo de empleados. Póngase en contacto con el equipo de IT.',
  },
  'contacts.investorTypeNotFound': { en: 'Investor type {ids} not found', es: 'No se ha encontrado el tipo de inversor {ids}' },
  'contacts.categoryNotFound': { en: 'Category {ids} not found', es: 'No se ha encontrado la categoría {ids}' },
  'contacts.eventNotFound': { en: 'Event {ids} not found', es: 'No se ha encontrado el evento {ids}' },
  'contacts.notFound': { en: 'Contact {id} not found', es: 'No se ha encontrado el contacto {id}' },
  'contacts.shared': {
    en: 'Contact {id} is shared by every company and cannot be changed here',
    es: 'El contacto {id} es común a todas las empresas y no se puede cambiar aquí',
  },
  'contacts.companyRequired': { en: 'A contact belongs to one of your companies: choose one', es: 'Un contacto pertenece a una de sus empresas: elija una' },
  'providers.nameExists': { en: 'A supplier with this name already exists: {name}', es: 'Ya existe un proveedor con este nombre: {name}' },
  'providers.vatExists': { en: 'A supplier with this tax id already exists: {name}', es: 'Ya existe un proveedor con este NIF: {name}' },

  // The payment report.
  'reports.range': { en: 'dateFrom must not be after dateTo', es: 'La fecha de inicio no puede ser posterior a la fecha de fin' },
  'reports.period': { en: 'The period can be at most five years', es: 'El periodo puede ser como máximo de cinco años' },

  // Saved filters of the lists (issue 33, item 5).
  'savedFilters.tooMany': {
    en: 'You already have {#maximum} saved filters on this list: delete one before saving another',
    es: 'Ya tiene {#maximum} filtros guardados en esta lista: elimine uno antes de guardar otro',
  },
  'savedFilters.empty': { en: 'There is no filter to save: apply at least one filter first', es: 'No hay ningún filtro que guardar: aplique al menos un filtro antes' },
  'savedFilters.notFound': { en: 'Saved filter {id} not found', es: 'No se ha encontrado el filtro guardado {id}' },

  // Receipts dropped many at once on the Move page (issue 33, item 1).
  'moveDrafts.tooMany': {
    en: 'You already have {#maximum} receipts waiting to be sent: send or discard some before adding more',
    es: 'Ya tiene {#maximum} recibos pendientes de enviar: envíe o descarte alguno antes de añadir más',
  },
  'moveDrafts.notFound': { en: 'Receipt {id} not found', es: 'No se ha encontrado el recibo {id}' },

  // Users and invitations.
  'users.notFound': { en: 'User {id} not found', es: 'No se ha encontrado el usuario {id}' },
  'users.godChange': {
    en: 'Only an administrator with god can change an account that holds god',
    es: 'Solo un administrador con god puede cambiar una cuenta que tiene god',
  },
  'users.godDelete': {
    en: 'Only an administrator with god can delete an account that holds god',
    es: 'Solo un administrador con god puede eliminar una cuenta que tiene god',
  },
  'users.raiseOwn': { en: 'You cannot raise your own permissions', es: 'No puede aumentar sus propios permisos' },
  'users.cannotGrant': { en: 'You cannot grant {permissions}: you do not hold it', es: 'No puede conceder {permissions}: no lo tiene' },
  'users.lastAdmin': { en: 'The last administrator cannot lose this permission', es: 'El último administrador no puede perder este permiso' },
  'users.nobodyElse': {
    en: 'Nobody else could manage users: the last administrator cannot lose this permission',
    es: 'Nadie más podría gestionar usuarios: el último administrador no puede perder este permiso',
  },
  // Issue 29: an edit made from a copy of the record older than the stored one. Who and when are given already
  // written (the server's time zone); either may be unknown (an account since deleted, a record never edited here).
  'users.stale': {
    en: ({ by, date, time }) => `Someone else${by ? ` (${by})` : ''} changed this record${date ? ` on ${date} at ${time}` : ''}: reload it`,
    es: ({ by, date, time }) => `Otra persona${by ? ` (${by})` : ''} cambió este registro${date ? ` el ${date} a las ${time}` : ''}: recárguelo`,
  },
  'users.emailFixed': { en: 'The email cannot be changed', es: 'El correo electrónico no se puede cambiar' },
  'users.companiesAdminOnly': { en: "Only an administrator can change a user's companies", es: 'Solo un administrador puede cambiar las empresas de un usuario' },
  'users.ownCompaniesOnly': { en: 'You can only give access to your own companies', es: 'Solo puede dar acceso a sus propias empresas' },
  'users.companyNotInErp': {
    en: 'Company {companies} does not exist in the ERP, or the server has no access to it',
    es: 'La empresa {companies} no existe en el ERP, o el servidor no tiene acceso a ella',
  },
  'users.deleteSelf': { en: 'You cannot delete your own account', es: 'No puede eliminar su propia cuenta' },
  'users.lastAdminDelete': { en: 'The last administrator cannot be deleted', es: 'El último administrador no se puede eliminar' },
  'users.exists': { en: 'A user with the email {email} already exists', es: 'Ya existe un usuario con el correo electrónico {email}' },
  'users.inviteForeign': {
    en: 'You cannot invite to companies you do not belong to: {companies}',
    es: 'No puede invitar a empresas a las que no pertenece: {companies}',
  },
  'users.inviteCompaniesAdmin': {
    en: 'Only an administrator can choose the companies of an invitation',
    es: 'Solo un administrador puede elegir las empresas de una invitación',
  },
  'users.inviteOwnCompanies': { en: 'You can only invite into your own companies', es: 'Solo puede invitar a sus propias empresas' },
  'users.mailFailed': {
    en: 'The invitation email could not be sent; nothing was saved. Try again later.',
    es: 'No se ha podido enviar el correo de invitación; no se ha guardado nada. Inténtelo de nuevo más tarde.',
  },
  'users.invitationNotFound': {
    en: 'Invitation {id} not found, or already accepted or expired',
    es: 'No se ha encontrado la invitación {id}, o ya se aceptó o caducó',
  },
} satisfies Record<string, Entry>;

export type MessageKey = keyof typeof CATALOGUE;
export const MESSAGE_KEYS = Object.keys(CATALOGUE) as MessageKey[];

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === 'string' && Object.hasOwn(CATALOGUE, value);
}

/**
 * How the fields a person edits are labelled in the console's forms (the same words as src/i18n; a test keeps them
 * equal). A `*` stands for a list index; `{1}` in a label is that index counted from 1 ("line 2").
 */
const FIELD_LABELS: Readonly<Record<string, { es: string; en: string }>> = {
  // The contact form (POST /odoo/contacts/create: { fields }).
  'fields.name': { es: 'Nombre', en: 'Name' },
  'fields.email': { es: 'Correo electrónico', en: 'Email' },
  'fields.phone': { es: 'Teléfono', en: 'Phone' },
  'fields.company_name': { es: 'Nombre de la empresa', en: 'Company name' },
  'fields.from_event_assistant': { es: 'Evento', en: 'Event' },
  'fields.company_id': { es: 'Empresa a la que pertenece', en: 'Company it belongs to' },
  'fields.x_studio_tipo_inversor': { es: 'Tipo de inversor', en: 'Investor type' },
  'fields.category_id': { es: 'Categorías', en: 'Categories' },
  'fields.function': { es: 'Cargo', en: 'Position' },
  'fields.website': { es: 'LinkedIn / web', en: 'LinkedIn / website' },
  'fields.notes': { es: 'Notas', en: 'Notes' },
  'fields.comment': { es: 'Comentario', en: 'Comment' },
  // The move form and the move detail.
  company_id: { es: 'Empresa', en: 'Company' },
  project: { es: 'Proyecto', en: 'Project' },
  project_id: { es: 'Proyecto', en: 'Project' },
  partner_id: { es: 'Proveedor', en: 'Supplier' },
  concept: { es: 'Concepto', en: 'Concept' },
  ref: { es: 'Referencia / concepto', en: 'Reference / concept' },
  amount: { es: 'Importe', en: 'Amount' },
  paymentMethod: { es: 'Método de pago', en: 'Payment method' },
  paymentStatus: { es: 'Estado del pago', en: 'Payment status' },
  date: { es: 'Fecha', en: 'Date' },
  comment: { es: 'Comentario', en: 'Comment' },
  file: { es: 'Archivo', en: 'File' },
  // The order form and its lines.
  'order.company_id': { es: 'Empresa', en: 'Company' },
  'order.partner_id': { es: 'Cliente', en: 'Customer' },
  'order.date_order': { es: 'Fecha del presupuesto', en: 'Quotation date' },
  'order.client_order_ref': { es: 'Referencia del cliente', en: 'Customer reference' },
  'order.pricelist_id': { es: 'Tarifa', en: 'Pricelist' },
  'order.payment_term_id': { es: 'Plazo de pago', en: 'Payment term' },
  'order.payment_mode_id': { es: 'Modo de pago', en: 'Payment mode' },
  'order.note': { es: 'Términos y condiciones', en: 'Terms and conditions' },
  lines: { es: 'Líneas del pedido', en: 'Order lines' },
  'lines.*.product_id': { es: 'Producto (línea {1})', en: 'Product (line {1})' },
  'lines.*.name': { es: 'Descripción (línea {1})', en: 'Description (line {1})' },
  'lines.*.product_uom_qty': { es: 'Cantidad (línea {1})', en: 'Quantity (line {1})' },
  'lines.*.price_unit': { es: 'Precio unitario (línea {1})', en: 'Unit price (line {1})' },
  'lines.*.tax_id': { es: 'Impuesto (línea {1})', en: 'Tax (line {1})' },
  'lines.*.product_uom': { es: 'Unidad (línea {1})', en: 'Unit (line {1})' },
  // Users and invitations.
  firstName: { es: 'Nombre', en: 'First name' },
  lastName: { es: 'Apellidos', en: 'Last name' },
  email: { es: 'Correo electrónico', en: 'Email' },
  companies: { es: 'Empresas', en: 'Companies' },
  permissions: { es: 'Permisos', en: 'Permissions' },
  // A saved filter (issue 33, item 5): its name is `name` below.
  filters: { es: 'Filtros', en: 'Filters' },
  // The payment report.
  dateFrom: { es: 'Fecha desde', en: 'Date from' },
  dateTo: { es: 'Fecha hasta', en: 'Date to' },
  // Generic resources (shared/resources: employees, projects).
  name: { es: 'Nombre', en: 'Name' },
  work_email: { es: 'Correo de trabajo', en: 'Work email' },
  job_title: { es: 'Puesto', en: 'Job title' },
  x_facturas_journal_id: { es: 'Diario de facturas', en: 'Invoice journal' },
  x_facturas_account: { es: 'Cuenta de facturas', en: 'Invoice account' },
  x_gastos_journal_id: { es: 'Diario de gastos', en: 'Expense journal' },
  x_gastos_account: { es: 'Cuenta de gastos', en: 'Expense account' },
};

/** The label of a field path in a person's language ("Precio unitario (línea 2)"), or undefined when none is declared. */
export function fieldLabel(path: string, locale: 'es' | 'en'): string | undefined {
  const segments = path.split('.');
  const indexes = segments.filter((segment) => /^\d+$/.test(segment)).map(Number);
  const pattern = segments.map((segment) => (/^\d+$/.test(segment) ? '*' : segment)).join('.');
  const label = FIELD_LABELS[pattern]?.[locale];
  return label?.replace(/\{(\d)\}/g, (_, which: string) => String((indexes[Number(which) - 1] ?? 0) + 1));
}

/** Every declared label pattern (tests tie them to the console's catalogue). */
export const LABELLED_FIELDS = Object.keys(FIELD_LABELS);

/** How a field is named in a message: its label for a person, its path for a script (and when it has no label). */
export function fieldName(path: string, locale: MessageLocale): string {
  return locale === 'api' ? path : (fieldLabel(path, locale) ?? path);
}

const NUMBER_FORMATS = {
  es: new Intl.NumberFormat('es-ES', { maximumFractionDigits: 10, useGrouping: 'always' } as Intl.NumberFormatOptions),
  en: new Intl.NumberFormat('en-GB', { maximumFractionDigits: 10, useGrouping: 'always' } as Intl.NumberFormatOptions),
};
/** Amounts with their cents, always two (1.210,00; 1,210.00; the API's 1210.00). */
const AMOUNT_FORMATS = {
  es: new Intl.NumberFormat('es-ES', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: 'always' } as Intl.NumberFormatOptions),
  en: new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: 'always' } as Intl.NumberFormatOptions),
};

function formatter(locale: MessageLocale): Formatter {
  return {
    locale,
    number: (value) => (locale === 'api' || !Number.isFinite(value) ? String(value) : NUMBER_FORMATS[locale].format(value)),
    amount: (value) => (!Number.isFinite(value) ? String(value) : locale === 'api' ? value.toFixed(2) : AMOUNT_FORMATS[locale].format(value)),
    or: (values) => {
      const items = values.map(String);
      if (locale === 'api' || items.length < 2) return items.join(' or ');
      return `${items.slice(0, -1).join(', ')} ${locale === 'es' ? 'o' : 'or'} ${items[items.length - 1]}`;
    },
  };
}

/**
 * A message in a locale. `field` names the field a template's `{field}` stands for (its label for a person).
 * A template's parameters that are missing are left as they were written ("{id}"), never a crash.
 */
export function renderMessage(locale: MessageLocale, key: MessageKey, params: MessageParams = {}, field?: string): string {
  const entry: Entry = CATALOGUE[key];
  const text = (locale === 'api' ? (entry.api ?? entry.en) : entry[locale]) as Text;
  const format = formatter(locale);
  const all: MessageParams = field === undefined ? params : { ...params, field: fieldName(field, locale) };
  if (typeof text === 'function') {
    try {
      return text(all, format);
    } catch {
      // A refusal is never worth a failed answer: parameters a template did not expect leave it as its key.
      return key;
    }
  }
  return text.replace(/\{([#$]?)(\w+)\}/g, (whole, numeric: string, name: string) => {
    const value = all[name];
    if (value === undefined) return whole;
    const written = (one: string | number | boolean) => (typeof one !== 'number' || !numeric ? String(one) : numeric === '$' ? format.amount(one) : format.number(one));
    if (Array.isArray(value)) return value.map(written).join(', ');
    return written(value as string | number | boolean);
  });
}

/**
 * The locale of a request's Accept-Language: the first of Spanish or English it asks for (by its q-values, then its
 * order); `api` when it asks for neither (absent, `*`, another language).
 */
export function messageLocale(acceptLanguage: string | string[] | undefined): MessageLocale {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : (acceptLanguage ?? '');
  const ranges = header
    .split(',')
    .map((part, index) => {
      const [tag, ...parameters] = part.trim().split(';');
      const q = parameters.map((one) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(one)?.[1]).find(Boolean);
      return { language: tag.trim().toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q), index };
    })
    .filter((range) => (range.language === 'es' || range.language === 'en') && range.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (ranges[0]?.language as 'es' | 'en' | undefined) ?? 'api';
}

/**
 * A message as a string that travels where only a string may (a zod rule's message): its key, parameters, and the
 * API's wording when a schema words it its own way ('The name is required'). Decoded by `decodeRule`.
 */
export interface Rule {
  key: MessageKey;
  params?: MessageParams;
  /** The API's reference wording of this rule, when the schema words it its own way. */
  api?: string;
  /** A path below the issue's own (a union's matched branch). */
  subpath?: ReadonlyArray<string | number>;
  /** The API's wording is the whole message: it names its field itself ('sort.field must be one of: ...'). */
  whole?: boolean;
}

const RULE_MARK = '\u2063rule:';

export function encodeRule(rule: Rule): string {
  return `${RULE_MARK}${JSON.stringify(rule)}`;
}

/** The rule a zod message carries; a plain text (zod's own wording) is kept as the API's wording of an invalid value. */
export function decodeRule(message: string): Rule {
  if (message.startsWith(RULE_MARK)) {
    try {
      const rule = JSON.parse(message.slice(RULE_MARK.length)) as Rule;
      if (isMessageKey(rule.key)) return rule;
    } catch {
      // Not one of ours after all: worded as it came.
    }
  }
  return { key: 'validation.invalid', api: message };
}

/** A refusal as the answer words it. */
export interface Refusal {
  key: MessageKey;
  params?: MessageParams;
  /** The field at fault, as a path ('fields.email', 'lines.0.price_unit'). */
  field?: string;
  /** The API's wording when it is not the catalogue's. */
  api?: string;
  /** The API's wording is the whole message, field included. */
  whole?: boolean;
}

/** Whether a key is a rule fragment ("is required"), which the answer puts after the field it concerns. */
const isRuleKey = (key: MessageKey) => key.startsWith('validation.');

/**
 * A refusal's message in a locale: a rule after its field ("Importe: debe ser al menos 0,01", for a script
 * "amount: must be at least 0.01"); a whole sentence as it is, with its `{field}` named in the locale. A rule about
 * the whole body names the body for a script ("body: must be an object, not a list").
 */
export function refusalMessage(locale: MessageLocale, refusal: Refusal): string {
  const text = locale === 'api' && refusal.api !== undefined ? refusal.api : renderMessage(locale, refusal.key, refusal.params, refusal.field);
  if (!isRuleKey(refusal.key) || (locale === 'api' && refusal.whole && refusal.api !== undefined)) return text;
  if (refusal.field) return `${fieldName(refusal.field, locale)}: ${text}`;
  if (locale === 'api') return /^(must|is) /.test(text) ? `body: ${text}` : text;
  return `${locale === 'es' ? 'La petición' : 'The request'}: ${text}`;
}
