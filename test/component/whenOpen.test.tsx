import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { whenOpen } from '../../src/shims/whenOpen';

/** The stand-in the build puts in place of MUI's Popper, Dialog, Snackbar and Menu (src/shims/whenOpen.tsx). */
function Real({ open, label }: { open?: boolean; keepMounted?: boolean; label: string }) {
  return <div data-testid="real">{`${label}: ${open ? 'open' : 'closed'}`}</div>;
}

describe('whenOpen', () => {
  afterEach(cleanup);

  it('loads nothing and draws nothing while closed, the real component from its first opening on', async () => {
    const load = vi.fn(async () => ({ default: Real }));
    const Late = whenOpen(load, 'Late');
    const { rerender } = render(<Late open={false} label="menu" />);
    expect(screen.queryByTestId('real')).toBeNull();
    expect(load).not.toHaveBeenCalled();

    rerender(<Late open label="menu" />);
    expect((await screen.findByTestId('real')).textContent).toBe('menu: open');
    expect(load).toHaveBeenCalledTimes(1);

    // Closing is the real component's to show (its exit transition).
    rerender(<Late open={false} label="menu" />);
    expect(screen.getByTestId('real').textContent).toBe('menu: closed');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads at once what is kept mounted', async () => {
    const Late = whenOpen(async () => ({ default: Real }), 'Late');
    render(<Late open={false} keepMounted label="columns" />);
    expect((await screen.findByTestId('real')).textContent).toBe('columns: closed');
  });

  it('passes the ref on to the real component', async () => {
    const Target = ({ ref }: { open?: boolean; ref?: React.Ref<HTMLSpanElement> }) => <span ref={ref}>target</span>;
    const Late = whenOpen(async () => ({ default: Target }), 'Late');
    const ref = { current: null as HTMLSpanElement | null };
    await act(async () => {
      render(<Late open ref={ref} />);
    });
    expect(await screen.findByText('target')).toBe(ref.current);
  });
});
