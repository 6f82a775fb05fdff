import { useState } from 'react';
import { Confirm, useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import SendIcon from '@mui/icons-material/Send';
import CancelIcon from '@mui/icons-material/CancelScheduleSend';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { serverMessageOr } from '../../providers/http';
import { usePhone } from '../../custom/usePhone';
import { STACKED_TABLE_SX } from '../../custom/stackedTable';
import { formatInstant } from '../../../shared/domain/format';

export interface PendingInvitation {
  id: number;
  email: string;
  permissions: string[];
  companies: number[];
  expiresAt: string;
  invitedBy: { id: number; email: string | null; name: string | null } | null;
}

/**
 * The invitations not yet accepted (issue 16): who was invited, into which companies, until when, by whom; each can
 * be sent again (a new link, 24 more hours; the old link stops working) or withdrawn. Under the users' list, for
 * those who manage users; nothing shows when none are pending.
 */
export function PendingInvitations({ companies }: { companies: Array<{ id: number; name: string }> }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const phone = usePhone();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const queryClient = useQueryClient();
  const [withdrawing, setWithdrawing] = useState<PendingInvitation | null>(null);
  // Under ['users', ...]: an invitation sent from the dialog refreshes it with the users.
  const { data } = useQuery({
    queryKey: ['users', 'invitations'],
    queryFn: () => dataProvider.action<{ invitations: PendingInvitation[] }>('users', 'invitations'),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['users', 'invitations'] });
  const resend = useMutation({
    mutationFn: (invitation: PendingInvitation) => dataProvider.action('users', 'resendInvitation', { params: { id: invitation.id }, body: { lang: locale === 'en' ? 'en' : 'es' } }),
    onSuccess: refresh,
  });
  const withdraw = useMutation({
    mutationFn: (invitation: PendingInvitation) => dataProvider.action('users', 'withdrawInvitation', { params: { id: invitation.id } }),
    onSuccess: refresh,
  });
  const invitations = data?.invitations ?? [];
  if (!invitations.length) return null;
  const companyNames = (ids: number[]) => ids.map((id) => companies.find((one) => one.id === id)?.name ?? `#${id}`).join(', ');

  return (
    <Box sx={{ p: 2 }} data-testid="pending-invitations">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {translate('app.users.pending.title')}
      </Typography>
      <Box sx={{ overflowX: 'auto' }}>
        {/* On a phone each invitation is a block of labelled fields. */}
        <Table size="small" sx={phone ? STACKED_TABLE_SX : undefined}>
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.users.fields.email')}</TableCell>
              <TableCell>{translate('app.users.fields.companies')}</TableCell>
              <TableCell>{translate('app.users.pending.invitedBy')}</TableCell>
              <TableCell>{translate('app.users.pending.expires')}</TableCell>
              <TableCell align="right">{translate('app.users.fields.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {invitations.map((invitation) => (
              <TableRow key={invitation.id} data-testid="pending-invitation">
                <TableCell data-wide data-label={translate('app.users.fields.email')}>{invitation.email}</TableCell>
                <TableCell data-wide data-label={translate('app.users.fields.companies')}>{companyNames(invitation.companies)}</TableCell>
                <TableCell data-label={translate('app.users.pending.invitedBy')}>{invitation.invitedBy?.name ?? '-'}</TableCell>
                <TableCell data-label={translate('app.users.pending.expires')} sx={{ whiteSpace: 'nowrap' }} data-testid="pending-expires">{formatInstant(invitation.expiresAt, locale)}</TableCell>
                <TableCell data-wide align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <Button
                    size="small"
                    startIcon={<SendIcon />}
                    disabled={resend.isPending}
                    onClick={async () => {
                      try {
                        await resend.mutateAsync(invitation);
                        notify('app.users.pending.resent', { type: 'success', messageArgs: { email: invitation.email } });
                      } catch (error) {
                        notify(serverMessageOr(error, 'app.users.inviteError'), { type: 'error' });
                      }
                    }}
                    data-testid="pending-resend"
                  >
                    {translate('app.users.pending.resend')}
                  </Button>
                  <Button size="small" color="error" startIcon={<CancelIcon />} onClick={() => setWithdrawing(invitation)} data-testid="pending-withdraw">
                    {translate('app.users.pending.withdraw')}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      <Confirm
        isOpen={Boolean(withdrawing)}
        loading={withdraw.isPending}
        title="app.users.pending.withdrawTitle"
        content="app.users.pending.withdrawText"
        translateOptions={{ email: withdrawing?.email ?? '' }}
        onConfirm={async () => {
          if (!withdrawing) return;
          try {
            await withdraw.mutateAsync(withdrawing);
            notify('app.users.pending.withdrawn', { type: 'success', messageArgs: { email: withdrawing.email } });
          } catch (error) {
            notify(serverMessageOr(error, 'app.users.inviteError'), { type: 'error' });
          }
          setWithdrawing(null);
        }}
        onClose={() => setWithdrawing(null)}
      />
    </Box>
  );
}
