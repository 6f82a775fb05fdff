import { useState } from 'react';
import { Confirm, useTranslate } from 'react-admin';
import Button, { type ButtonProps } from '@mui/material/Button';

/**
 * "Descartar" for something that exists nowhere else (a receipt waiting on this phone, a batch receipt and what was
 * read of it): asked once more, naming it, since a mistaken tap cannot be undone.
 */
export function DiscardButton({ name, label, ariaLabel, disabled, color = 'inherit', testId, onConfirm }: { name: string; label: string; ariaLabel?: string; disabled?: boolean; color?: ButtonProps['color']; testId: string; onConfirm: () => void }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" color={color} disabled={disabled} onClick={() => setOpen(true)} aria-label={ariaLabel} data-testid={testId}>
        {translate(label)}
      </Button>
      <Confirm
        isOpen={open}
        title="app.discard.title"
        content="app.discard.content"
        translateOptions={{ name }}
        confirm={label}
        confirmColor="warning"
        onConfirm={() => {
          setOpen(false);
          onConfirm();
        }}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
