import { Link as RouterLink } from 'react-router-dom';
import { useGetIdentity, useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Typography from '@mui/material/Typography';
import { areaById, HOME_ORDER } from '../../shared/domain/areas';
import { areaIcon } from './areaIcons';
import { HomeCounts } from './HomeCounts';
import { LoadError } from './LoadError';
import { PatientLoading } from './PatientLoading';
import { useAllowedAreas } from './useAllowedAreas';

/** Home (spec section 2): what waits for the user (HomeCounts), then links to every area the user may use. */
export function Home() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const { areas, isPending, error, refetch } = useAllowedAreas();
  if (isPending) return <PatientLoading />;
  // Permissions that could not be read are not "no area": said, with a retry (issue 51, item 4).
  if (error) return <LoadError title="app.loads.permissions" error={error} onRetry={refetch} testId="home-error" sx={{ my: 3 }} />;
  const allowed = new Set(areas.map((area) => area.id));
  const links = HOME_ORDER.filter((id) => allowed.has(id)).map(areaById);
  return (
    <Box sx={{ py: 3, maxWidth: 1100 }}>
      <Typography variant="h5" component="h2" gutterBottom>
        {translate('app.home.greeting', { name: identity?.firstName ?? '' })}
      </Typography>
      {links.length === 0 ? (
        <Alert severity="info" data-testid="home-none">
          {translate('app.home.none')}
        </Alert>
      ) : (
        <>
          <HomeCounts />
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {translate('app.home.intro')}
          </Typography>
          <Box
            component="nav"
            sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))' }}
            data-testid="home-links"
          >
            {links.map((area) => {
              const Icon = areaIcon(area.icon);
              return (
                <Card key={area.id} variant="outlined">
                  <CardActionArea
                    component={RouterLink}
                    to={area.path}
                    sx={{ p: 2, display: 'flex', gap: 2, justifyContent: 'flex-start', minHeight: 88 }}
                    data-testid={`home-${area.id}`}
                  >
                    <Box sx={{ color: 'primary.main', display: 'flex' }}>
                      <Icon />
                    </Box>
                    <Typography variant="subtitle1" component="span">{translate(`app.titles.${area.id}`)}</Typography>
                  </CardActionArea>
                </Card>
              );
            })}
          </Box>
        </>
      )}
    </Box>
  );
}
