/**
 * The API's browsable documentation at /docs (@fastify/swagger-ui), made to pass axe with no serious or critical
 * finding (issue 27: Swagger UI as shipped had 137 serious and 3 critical).
 *
 * - `layout: 'BaseLayout'`: no top bar, whose URL box had no label, whose logo had no text alternative and whose
 *   dark-mode switch had no name; the document shown is always this server's.
 * - `deepLinking: false`: an operation's path is no longer a link inside its expand button (a control inside a
 *   control, 66 times).
 * - `validatorUrl: null`: no badge fetched from validator.swagger.io (no network beyond what is configured).
 * - A style sheet darkening Swagger UI's colours to WCAG AA contrast (4.5:1 for text), and lightening the two
 *   colours of its code theme (agate: numbers and comments) that read at 3.5:1 on its dark grey.
 * - A script naming the controls Swagger UI leaves unnamed (the dialogs' close cross, a model's expand button, the
 *   request body's box), letting the keyboard reach the code samples that scroll sideways, and giving the page its
 *   main landmark. Both are files served from this origin, which the Content-Security-Policy (server/security.ts) allows as
 *   it stands: script-src and style-src 'self'.
 */

/** Darker shades of Swagger UI's method colours: white on each is at least 5:1. */
const METHODS: Record<string, string> = {
  get: '#1f6fbf',
  post: '#177245',
  put: '#a65a00',
  delete: '#c01f1f',
  patch: '#0f7a63',
  head: '#7a0fd6',
  options: '#0d5aa7',
};

const methodRules = Object.entries(METHODS)
  .map(
    ([method, colour]) => `
.swagger-ui .opblock.opblock-${method} .opblock-summary-method { background: ${colour}; }
.swagger-ui .opblock.opblock-${method} { border-color: ${colour}; }
.swagger-ui .opblock.opblock-${method} .opblock-summary { border-color: ${colour}; }
.swagger-ui .opblock.opblock-${method} .tab-header .tab-item.active h4 span:after { background: ${colour}; }`,
  )
  .join('');

export const DOCS_CSS = `${methodRules}
.swagger-ui .opblock.opblock-deprecated .opblock-summary-method { background: #6b6b6b; }
.swagger-ui .info .title small pre { background: #5a606b; }
.swagger-ui .info .title small.version-stamp { background: #4d7a00; }
.swagger-ui .info .title small.version-stamp pre { background: #4d7a00; }
.swagger-ui .info a, .swagger-ui .info .url, .swagger-ui .scopes h2 a { color: #1d5fa8; }
.swagger-ui .btn.authorize { color: #177245; border-color: #177245; }
.swagger-ui .btn.authorize svg { fill: #177245; }
.swagger-ui .btn.cancel { color: #c01f1f; border-color: #c01f1f; }
.swagger-ui .btn.execute { background-color: #1f6fbf; border-color: #1f6fbf; }
.swagger-ui .parameter__in, .swagger-ui .parameter__deprecated, .swagger-ui .prop-format { color: #595959; }
.swagger-ui .model .property, .swagger-ui table.headers .header-example { color: #595959; }
.swagger-ui .response-col_status .response-undocumented, .swagger-ui .response-col_links .response-undocumented { color: #595959; }
.swagger-ui .model .deprecated span, .swagger-ui .model .deprecated td { color: #595959; }
.swagger-ui .model-hint { color: #333; background: #ebebeb; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #595959; }
.swagger-ui .json-schema-2020-12-keyword__name--extension, .swagger-ui .json-schema-2020-12-keyword__value--extension,
.swagger-ui .json-schema-2020-12-json-viewer__name--extension, .swagger-ui .json-schema-2020-12-json-viewer__value--extension { color: #595959; }
.swagger-ui input[disabled], .swagger-ui select[disabled], .swagger-ui textarea[disabled] { color: #595959; }
.swagger-ui .model-deprecated-warning { color: #c01f1f; }
.swagger-ui .renderedMarkdown code { color: #7a2a99; }
.swagger-ui :focus-visible { outline: 2px solid #1d5fa8; outline-offset: 2px; }
.swagger-ui .microlight span[style*="rgb(211, 99, 99)"] { color: #f08a8a !important; }
.swagger-ui .microlight span[style*="rgb(136, 136, 136)"] { color: #b0b0b0 !important; }
`;

/**
 * Names Swagger UI's unnamed controls as they appear (it draws operations, models and dialogs on demand), puts its
 * code samples (which scroll sideways) in the Tab order, and makes its root the page's main landmark. The Authorize
 * dialog's submit button says "Authorize" but is named "Apply credentials": its name then starts with what it says
 * (WCAG 2.5.3, label in name).
 */
export const DOCS_JS = `(function () {
  function label(selector, text) {
    document.querySelectorAll(selector).forEach(function (element) {
      if (!element.getAttribute('aria-label')) element.setAttribute('aria-label', typeof text === 'function' ? text(element) : text);
    });
  }
  function name() {
    label('.close-modal', 'Close');
    label('.model-box-control', function (button) {
      var title = button.querySelector('.model-title') || (button.closest('.model-container') || button.parentElement).querySelector('.model-title');
      return (title && (title.textContent || '').trim()) || 'Schema';
    });
    label('textarea.body-param__text', 'Request body');
    document.querySelectorAll('.highlight-code pre, pre.microlight').forEach(function (code) {
      if (!code.hasAttribute('tabindex')) code.setAttribute('tabindex', '0');
    });
    document.querySelectorAll('button[aria-label="Apply credentials"]').forEach(function (button) {
      button.setAttribute('aria-label', (button.textContent || '').trim() + ': apply credentials');
    });
  }
  var root = document.getElementById('swagger-ui');
  if (root) root.setAttribute('role', 'main');
  new MutationObserver(name).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-label'] });
  name();
})();
`;

export const DOCS_UI = {
  uiConfig: { layout: 'BaseLayout', deepLinking: false, validatorUrl: null },
  theme: {
    title: 'Backoffice API',
    css: [{ filename: 'accessible.css', content: DOCS_CSS }],
    js: [{ filename: 'accessible.js', content: DOCS_JS }],
  },
};
