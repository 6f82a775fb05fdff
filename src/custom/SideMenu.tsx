import { Menu, useTranslate } from 'react-admin';
import { areaIcon } from './areaIcons';
import { useAllowedAreas } from './useAllowedAreas';

/** Side menu of spec section 2: one entry per area the user holds the permission for. */
export function SideMenu() {
  const translate = useTranslate();
  const { areas } = useAllowedAreas();
  return (
    <Menu>
      {areas.map((area) => {
        const Icon = areaIcon(area.icon);
        return (
          <Menu.Item
            key={area.id}
            to={area.path}
            primaryText={translate(`app.titles.${area.id}`)}
            leftIcon={<Icon />}
            data-testid={`menu-${area.id}`}
          />
        );
      })}
    </Menu>
  );
}
