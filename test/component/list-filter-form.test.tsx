import { createRef, useImperativeHandle, useState, type Ref } from 'react';
import { ListContextProvider, TextInput, type ListControllerResult } from 'react-admin';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ListFilterForm } from '../../src/custom/ListFilterForm';
import { renderInAdmin } from './admin';

/**
 * A list whose filters apply when the test says so (`applyPending`), as a loaded browser applies them a moment after
 * the click, and which the test can change from elsewhere (`changeFromElsewhere`), as the grouping tabs do.
 */
interface Controls { applyPending: () => void; changeFromElsewhere: (filters: Record<string, unknown>) => void }
const applied: Array<Record<string, unknown>> = [];

function SlowList({ ref }: { ref: Ref<Controls> }) {
  const [filterValues, setFilterValues] = useState<Record<string, unknown>>({ reference: 'FAC' });
  const [pending, setPending] = useState<Record<string, unknown> | null>(null);
  useImperativeHandle(ref, () => ({
    applyPending: () => {
      if (pending) setFilterValues(pending);
      setPending(null);
    },
    changeFromElsewhere: setFilterValues,
  }));
  const context = {
    filterValues,
    displayedFilters: {},
    setFilters: (filters: Record<string, unknown>) => {
      applied.push(filters);
      setPending(filters);
    },
  } as unknown as ListControllerResult;
  return (
    <ListContextProvider value={context}>
      <ListFilterForm>
        <TextInput source="reference" label="Reference" />
      </ListFilterForm>
    </ListContextProvider>
  );
}

const controls = createRef<Controls>();
const applyPending = () => controls.current!.applyPending();
const changeFromElsewhere = (filters: Record<string, unknown>) => controls.current!.changeFromElsewhere(filters);
const box = () => screen.getByRole('textbox', { name: 'Reference' }) as HTMLInputElement;
/** The list drawn with its form unfolded (folded at first on a desktop). */
async function renderUnfolded() {
  renderInAdmin(<SlowList ref={controls} />, { lang: 'en' });
  fireEvent.click(screen.getByTestId('filters-toggle'));
  // The inputs load with the first unfolding.
  await screen.findByRole('textbox', { name: 'Reference' });
}

describe('the list filter form', () => {
  afterEach(() => {
    cleanup();
    applied.length = 0;
  });

  it('keeps what the user types right after clearing, while the list is still applying the clearing', async () => {
    await renderUnfolded();
    await waitFor(() => expect(box().value).toBe('FAC'));
    fireEvent.click(screen.getByTestId('clear-filters'));
    expect(box().value).toBe('');
    expect(applied).toEqual([{}]);
    fireEvent.change(box(), { target: { value: 'ABONO' } });
    act(() => applyPending());
    expect(box().value).toBe('ABONO');
    fireEvent.click(screen.getByTestId('apply-filters'));
    await waitFor(() => expect(applied.at(-1)).toEqual({ reference: 'ABONO' }));
  });

  it('keeps what the user types right after applying, while the list is still applying it', async () => {
    await renderUnfolded();
    await waitFor(() => expect(box().value).toBe('FAC'));
    fireEvent.change(box(), { target: { value: 'FAC/2026' } });
    fireEvent.click(screen.getByTestId('apply-filters'));
    await waitFor(() => expect(applied).toEqual([{ reference: 'FAC/2026' }]));
    fireEvent.change(box(), { target: { value: 'FAC/2026/00' } });
    act(() => applyPending());
    expect(box().value).toBe('FAC/2026/00');
  });

  it('shows filters applied from elsewhere (a grouping tab), drawing the form again with them', async () => {
    await renderUnfolded();
    await waitFor(() => expect(box().value).toBe('FAC'));
    act(() => changeFromElsewhere({ reference: 'RINV' }));
    await waitFor(() => expect(box().value).toBe('RINV'));
    // The same filters again from elsewhere after the user's own apply of other ones: drawn again too.
    fireEvent.change(box(), { target: { value: 'X' } });
    fireEvent.click(screen.getByTestId('apply-filters'));
    await waitFor(() => expect(applied.at(-1)).toEqual({ reference: 'X' }));
    act(() => applyPending());
    act(() => changeFromElsewhere({ reference: 'RINV' }));
    await waitFor(() => expect(box().value).toBe('RINV'));
  });
});
