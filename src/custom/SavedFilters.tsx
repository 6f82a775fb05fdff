import { lazy, Suspense, useId, useState } from 'react';
import { Button } from 'react-admin';
import BookmarksIcon from '@mui/icons-material/BookmarksOutlined';
import type { SavedFilterList } from '../../shared/domain/saved-filters';

const SavedFiltersMenu = lazy(() => import('./SavedFiltersMenu'));

/**
 * The saved filters of a list (issue 33, item 5), in its toolbar: a button whose menu (SavedFiltersMenu.tsx) loads
 * when first pressed, so a list's first load carries only the button.
 */
export function SavedFilters({ list }: { list: SavedFilterList }) {
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        label="app.savedFilters.button"
        data-testid="saved-filters"
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => {
          setAnchor(event.currentTarget);
          setOpened(true);
        }}
      >
        <BookmarksIcon />
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <SavedFiltersMenu list={list} menuId={menuId} anchor={anchor} close={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}
