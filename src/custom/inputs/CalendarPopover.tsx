import Popover from '@mui/material/Popover';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { DateCalendar } from '@mui/x-date-pickers/DateCalendar';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { esES, enUS } from '@mui/x-date-pickers/locales';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/es';
import 'dayjs/locale/en-gb';

interface Props {
  anchor: HTMLElement | null;
  locale: string;
  label: string;
  value: string | null;
  minDate?: string;
  maxDate?: string;
  onPick: (day: string) => void;
  onClose: () => void;
}

/**
 * The calendar of a date box (MUI X's DateCalendar, weeks from Monday, month names in the console's language): a
 * day chosen is given back as YYYY-MM-DD and the calendar closes. Loaded when a calendar is first opened.
 */
export default function CalendarPopover({ anchor, locale, label, value, minDate, maxDate, onPick, onClose }: Props) {
  const texts = (locale === 'en' ? enUS : esES).components.MuiLocalizationProvider.defaultProps.localeText;
  return (
    <Popover open anchorEl={anchor} onClose={onClose} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }} transformOrigin={{ vertical: 'top', horizontal: 'right' }} slotProps={{ paper: { role: 'dialog', 'aria-label': label } as object }}>
      <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale={locale === 'en' ? 'en-gb' : 'es'} localeText={texts}>
        <DateCalendar
          value={value ? dayjs(value) : null}
          minDate={minDate ? dayjs(minDate) : undefined}
          maxDate={maxDate ? dayjs(maxDate) : undefined}
          autoFocus
          onChange={(day: Dayjs | null, state) => {
            if (!day || !day.isValid()) return;
            onPick(day.format('YYYY-MM-DD'));
            // Moving between months or years keeps it open; a day chosen closes it.
            if (state === 'finish') onClose();
          }}
        />
      </LocalizationProvider>
    </Popover>
  );
}
