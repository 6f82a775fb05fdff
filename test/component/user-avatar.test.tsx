/**
 * Issue 51: the avatar's initials overflowed their circle in the app bar. At most two letters, whole characters, at a
 * size scaled to the circle's own, also where a button gives its start icon a font size of its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import Button from '@mui/material/Button';
import { UserAvatar, initials } from '../../src/custom/UserAvatar';

afterEach(cleanup);
const drawn = () => screen.getByTestId('user-initials');

describe('the user avatar', () => {
  it('shows at most two letters, the first of the first and last names, whole and upper case', () => {
    expect(initials('María José', 'de la Fuente García')).toBe('MD');
    expect(initials('  ángela ', 'ñúñez')).toBe('ÁÑ');
    // A letter written in two code units (a surrogate pair) is one letter, not half of one.
    expect(initials('𝒜lba', 'Ortiz')).toBe('𝒜O');
    expect(initials('Wolfgang Amadeus', 'Mozart-Habsburg-Lothringen')).toBe('WM');
    expect(initials('', undefined)).toBe('');
  });

  it.each([
    [32, 'WM', 12.2],
    [64, 'WM', 24.3],
    [32, 'W', 14.7],
  ] as const)('in a %i px circle, %s is drawn at %s px (inside the circle)', (size, letters, fontSize) => {
    render(<UserAvatar firstName={letters[0] + 'olfgang Amadeus'} lastName={letters[1] ? `${letters[1]}ozart-Habsburg` : ''} size={size} />);
    expect(drawn().getAttribute('data-initials')).toBe(letters);
    expect(getComputedStyle(drawn()).fontSize).toBe(`${fontSize}px`);
  });

  it("keeps its size as the app bar's account button's start icon (which sizes its icon at 20 px)", () => {
    render(<Button startIcon={<UserAvatar firstName="Wolfgang" lastName="Mozart" />}>Wolfgang Mozart</Button>);
    expect(getComputedStyle(drawn()).fontSize).toBe('12.2px');
    expect(drawn().textContent).toBe('');
  });
});
