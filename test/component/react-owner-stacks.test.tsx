/**
 * test/component/react-owner-stacks.ts keeps React's development build from recording an owner stack per element:
 * in force here (two elements share React's placeholder, no stack of their own), and React's warnings still come.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createElement } from 'react';
import { render } from '@testing-library/react';

const debugStack = (element: unknown) => (element as { _debugStack?: unknown })._debugStack;

describe("React's owner stacks in component tests", () => {
  afterEach(() => vi.restoreAllMocks());

  it('are not recorded per element: every element has the same placeholder', () => {
    const first = createElement('div');
    const second = createElement('span');
    expect(debugStack(first)).toBeDefined();
    expect(debugStack(first)).toBe(debugStack(second));
  });

  it("leave React's warnings as they were: a list without keys is still reported", () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const List = () => createElement('ul', null, ['a', 'b'].map((item) => createElement('li', null, item)));
    render(createElement(List));
    expect(error.mock.calls.map((call) => String(call[0])).join('\n')).toMatch(/unique "key" prop/);
  });
});
