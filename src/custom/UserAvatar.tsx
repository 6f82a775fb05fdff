import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';

/** The first letter of a name as a person reads it (a whole character, not half of one written in two code units). */
const firstLetter = (name?: string) => Array.from(name?.trim().normalize('NFC') ?? '')[0] ?? '';

/** At most two letters: the first of the first name and the first of the last name ("María José", "de la Fuente": MD). */
export function initials(firstName?: string, lastName?: string): string {
  return `${firstLetter(firstName)}${firstLetter(lastName)}`.toLocaleUpperCase();
}

/** The initials' size for a circle of `size` pixels: two wide capitals ("WM") fit inside it with a margin. */
export const initialsFontSize = (size: number, letters: number) => Math.round(size * (letters > 1 ? 0.38 : 0.46) * 10) / 10;

/** The avatar image, or the initials of first and last name when there is none or it fails to load. */
export function UserAvatar({ imageUrl, firstName, lastName, size = 32 }: {
  imageUrl?: string | null;
  firstName?: string;
  lastName?: string;
  size?: number;
}) {
  const letters = initials(firstName, lastName);
  return (
    <Avatar
      src={imageUrl || undefined}
      alt=""
      sx={{ width: size, height: size, bgcolor: '#e3edf7', color: 'primary.dark', fontWeight: 500 }}
      slotProps={{ img: { referrerPolicy: 'no-referrer' } }}
      data-testid="user-avatar"
      aria-hidden
    >
      {/* The initials repeat the name written beside them: drawn (CSS content), not text a reader or axe's
          label-content-name-mismatch would count in the account button's name. Their size is their own, not the
          circle's: as a button's start icon (the app bar's account button) the circle is given the button's icon
          size (20 px), which made two letters wider than a 32 px circle (issue 51). */}
      <Box
        component="span"
        data-initials={letters}
        data-testid="user-initials"
        sx={{ fontSize: `${initialsFontSize(size, Array.from(letters).length)}px`, lineHeight: 1, whiteSpace: 'nowrap', '&::before': { content: 'attr(data-initials)' } }}
      />
    </Avatar>
  );
}
