/**
 * Issue 27: useFocusAfter puts the focus on the field to fill again once an action is over, waiting for the field to
 * be enabled (a form disabled while it sends), and leaves the focus alone when the user has moved it meanwhile.
 */
import { useRef, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useFocusAfter } from '../../src/custom/useFocusAfter';

/** A form like the Move page's: Send disables it while sending, then clears it and asks for the focus on the concept. */
function SendForm({ finish }: { finish: Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [concept, setConcept] = useState('Taxi');
  const conceptInput = useRef<HTMLInputElement>(null);
  const focusAfter = useFocusAfter();
  async function send() {
    setBusy(true);
    // Asked before the form is enabled again: it waits for it.
    await finish;
    focusAfter(conceptInput);
    setConcept('');
    setBusy(false);
  }
  return (
    <>
      <input aria-label="concept" ref={conceptInput} value={concept} disabled={busy} onChange={(event) => setConcept(event.target.value)} />
      <input aria-label="other" disabled={busy} />
      <button onClick={send} disabled={busy}>Send</button>
    </>
  );
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('useFocusAfter', () => {
  it('focuses the field once it is enabled again after a send', async () => {
    const sending = deferred();
    render(<SendForm finish={sending.promise} />);
    const send = screen.getByRole('button', { name: 'Send' });
    send.focus();
    fireEvent.click(send);
    expect((screen.getByLabelText('concept') as HTMLInputElement).disabled).toBe(true);
    await act(async () => sending.resolve());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('concept')));
    expect((screen.getByLabelText('concept') as HTMLInputElement).value).toBe('');
  });

  it('leaves the focus where the user put it meanwhile', async () => {
    function Late() {
      const [shown, setShown] = useState(false);
      const target = useRef<HTMLInputElement>(null);
      const focusAfter = useFocusAfter();
      return (
        <>
          <button onClick={() => focusAfter(target)}>ask</button>
          <button onClick={() => setShown(true)}>show</button>
          <input aria-label="elsewhere" />
          {shown && <input aria-label="target" ref={target} />}
        </>
      );
    }
    render(<Late />);
    fireEvent.click(screen.getByRole('button', { name: 'ask' }));
    act(() => screen.getByLabelText('elsewhere').focus());
    fireEvent.click(screen.getByRole('button', { name: 'show' }));
    await screen.findByLabelText('target');
    expect(document.activeElement).toBe(screen.getByLabelText('elsewhere'));
  });
});
