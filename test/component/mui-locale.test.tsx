import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import LinearProgress from '@mui/material/LinearProgress';
import { LoadingInput } from 'react-admin';
import { cleanup, screen, waitFor } from '@testing-library/react';
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

describe('a progress indicator react-admin draws', () => {
  afterEach(cleanup);

  // Issue 51: axe found an unnamed progress bar in the employees' filter (its company select's choices loading).
  it.each([
    ['es', 'Cargando'],
    ['en', 'Loading'],
  ])('is named in the user\'s language, as a select loads its choices and as a bar (%s)', async (lang, name) => {
    renderInAdmin(
      <MuiLocale>
        <LoadingInput label="Empresa" timeout={0} />
        <LinearProgress />
        <LinearProgress aria-label="Leyendo el documento" />
      </MuiLocale>,
      { lang },
    );
    await waitFor(() => expect(screen.getAllByRole('progressbar', { name })).toHaveLength(2));
    // A name its screen gives is kept.
    expect(screen.getByRole('progressbar', { name: 'Leyendo el documento' })).toBeTruthy();
  });
});
