import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MuiLocale } from '../../src/custom/muiLocale';
import { renderInAdmin } from './admin';

/** A lookup box with nothing to offer, open, and with a value to clear: MUI writes its texts itself. */
function Lookup() {
  return <Autocomplete open options={['Acme']} value="Acme" inputValue="qqqq" filterOptions={() => []} renderInput={(params) => <TextField {...params} label="Supplier" />} />;
}

describe("MUI's own texts", () => {
  afterEach(cleanup);

  it.each([
    ['es', 'Sin opciones', 'Limpiar', 'Cerrar'],
    ['en', 'No options', 'Clear', 'Close'],
  ])('are in the user\'s language in a lookup box (%s)', async (lang, none, clear, close) => {
    renderInAdmin(
      <MuiLocale>
        <Lookup />
      </MuiLocale>,
      { lang },
    );
    expect(await screen.findByText(none)).toBeTruthy();
    // The clear button shows on hover; its label is there all along.
    expect(screen.getByTitle(clear)).toBeTruthy();
    expect(screen.getByRole('button', { name: close })).toBeTruthy();
  });
});
