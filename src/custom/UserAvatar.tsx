import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';

export function initials(firstName?: string, lastName?: string): string {
  const first = firstName?.trim().charAt(0) ?? '';
  const last = lastName?.trim().charAt(0) ?? '';
  return `${first}${last}`.toUpperCase();
}

/** The avatar image, or the initials of first and last name when there is none or it fails to load. */
export function UserAvatar({ imageUrl, firstName, lastName, size = 32 }: {
  imageUrl?: string | null;
  firstName?: string;
  lastName?: string;
  size?: number;
}) {
  return (
    <Avatar
      src={imageUrl || undefined}
      alt=""
      sx={{ width: size, height: size, fontSize: size * 0.42, bgcolor: '#e3edf7', color: 'primary.dark', fontWeight: 500 }}
      slotProps={{ img: { referrerPolicy: 'no-referrer' } }}
      data-testid="user-avatar"
      aria-hidden
    >
      {/* The initials repeat the name written beside them: drawn (CSS content), not text a reader or axe's
          label-content-name-mismatch would count in the account button's name. */}
      <Box component="span" data-initials={initials(firstName, lastName)} sx={{ '&::before': { content: 'attr(data-initials)' } }} />
    </Avatar>
  );
}
