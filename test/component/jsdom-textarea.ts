/**
 * jsdom lays nothing out, yet computes a style by matching the element against every rule of every stylesheet, and
 * emotion gives the console's MUI components thousands. MUI's multiline text box (TextareaAutosize) asks the computed
 * style of its textarea after every render to fit its height, which jsdom cannot measure anyway: in the order form's
 * longest test that was 2.2 s of its 11.7 s of processor time (issue 53: why orders.test.tsx took a minute). A
 * textarea's computed style is its own inline style here; every other element's stays jsdom's (Testing Library reads
 * those to tell what is hidden).
 */
const computed = window.getComputedStyle.bind(window);
window.getComputedStyle = ((element: Element, pseudo?: string | null) =>
  element instanceof HTMLTextAreaElement && !pseudo ? element.style : computed(element, pseudo)) as typeof window.getComputedStyle;
