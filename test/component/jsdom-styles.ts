/**
 * jsdom lays nothing out, yet computes a style by matching the element against every rule of every stylesheet, and
 * emotion gives the console's MUI components thousands. Two things here keep that from being most of a component
 * test's processor time (issue 53), neither changing what a test sees:
 */
import { htmlType, mayMatch, selectorSubjects, type Subject } from '../support/selector-classes';

/**
 * 1. MUI's multiline text box (TextareaAutosize) asks the computed style of its textarea after every render to fit
 * its height, which jsdom cannot measure anyway: in the order form's longest test that was 2.2 s of its 11.7 s of
 * processor time (why orders.test.tsx took a minute). A textarea's computed style is its own inline style here;
 * every other element's stays jsdom's (Testing Library reads those to tell what is hidden, user-event what takes a
 * click, Popper which ancestors scroll).
 */
const computed = window.getComputedStyle.bind(window);
window.getComputedStyle = ((element: Element, pseudo?: string | null) =>
  element instanceof HTMLTextAreaElement && !pseudo ? element.style : computed(element, pseudo)) as typeof window.getComputedStyle;

/**
 * 2. jsdom asks its selector engine, rule after rule, whether the element matches (`_domSelector.check`, used for
 * nothing else): a rule whose selector's subject is another HTML type (its own default stylesheet's ~110 rules) or
 * needs a class the element lacks (emotion's hundreds) is answered "no" without asking.
 * The same rules match, in the same order, so the cascade is jsdom's own. (jsdom's internals: the document's impl and
 * its selector engine; if a jsdom upgrade moves them, nothing is skipped and the suite is only slower.)
 */
interface ElementImpl {
  getAttributeNS(namespace: string | null, name: string): string | null;
  readonly localName: string;
  readonly namespaceURI: string | null;
}
interface SelectorEngine {
  check: (selector: string, node: ElementImpl, options?: object) => { match: boolean };
}
const implKey = Object.getOwnPropertySymbols(document).find((symbol) => symbol.description === 'impl');
const engine = implKey && (document as unknown as Record<symbol, { _domSelector?: SelectorEngine }>)[implKey]?._domSelector;
if (engine && typeof engine.check === 'function' && document.compatMode === 'CSS1Compat') {
  const check = engine.check;
  const selectors = new Map<string, Array<Subject | null>>();
  const classSets = new WeakMap<ElementImpl, { attribute: string | null; classes: Set<string> }>();
  const classesOf = (node: ElementImpl) => {
    const attribute = node.getAttributeNS(null, 'class');
    let known = classSets.get(node);
    if (!known || known.attribute !== attribute) {
      known = { attribute, classes: new Set(attribute?.split(/[\t\n\f\r ]+/).filter(Boolean)) };
      classSets.set(node, known);
    }
    return known.classes;
  };
  engine.check = (selector, node, options) => {
    let alternatives = selectors.get(selector);
    if (!alternatives) selectors.set(selector, (alternatives = selectorSubjects(selector)));
    if (typeof node?.getAttributeNS === 'function' && !mayMatch(alternatives, classesOf(node), htmlType(node))) return { match: false, ast: null, pseudoElement: null };
    return check(selector, node, options);
  };
}
