import { DataTable, List, SimpleList, useCanAccess } from 'react-admin';
import { genericViewNames } from './offer';
import { filtersOf } from './filters';
import { GenericField } from './GenericField';
import { fieldsWhere, useDeclaration } from './useDeclaration';
import { declaredColumns } from './columns';
import { ListEmpty, ListPagination } from '../../custom/ListProblem';
import { KeyboardBody } from '../../custom/KeyboardRows';
import { ListSkipTarget } from '../../custom/SkipToList';
import { usePhone } from '../../custom/usePhone';
import { CardLine } from '../../custom/CardLine';
import { ListRows } from '../../custom/ListRows';

/**
 * The list of a declared resource: a column per `list` field, sortable where the server sorts, the declared filters,
 * paging; a row opens the edit view when the user may edit, else the show view when there is one.
 */
export function GenericList() {
  const resource = useDeclaration();
  const views = genericViewNames(resource);
  const { canAccess: canEdit } = useCanAccess({ resource: resource.name, action: 'edit', enabled: views.includes('edit') });
  const rowClick = views.includes('edit') && canEdit ? 'edit' : views.includes('show') ? 'show' : false;
  const phone = usePhone();
  const columns = fieldsWhere(resource, 'list');
  const [[firstName, firstField] = [], ...others] = columns;
  return (
    <List resource={resource.name} sort={resource.defaultSort} filters={filtersOf(resource)} exporter={false} perPage={25} title={false} pagination={<ListPagination />} sx={{ minWidth: 0, '& .RaList-main, & .RaList-content': { minWidth: 0 } }}>
      <ListSkipTarget />
      <ListRows>
      {phone && firstName ? (
        // Phones: a card per record, its first list field as the title and the others under it; it opens as a row does.
        <SimpleList
          data-testid={`${resource.name}-cards`}
          empty={<ListEmpty />}
          rowClick={rowClick}
          primaryText={() => <GenericField source={firstName} field={firstField!} />}
          secondaryText={() => (
            <>
              {others.map(([name, field]) => (
                <CardLine key={name}>
                  <GenericField source={name} field={field} />
                </CardLine>
              ))}
            </>
          )}
        />
      ) : (
      <DataTable empty={<ListEmpty />} body={rowClick ? KeyboardBody : undefined} rowClick={rowClick} bulkActionButtons={false} data-testid={`${resource.name}-table`} sx={{ '& .RaDataTable-tableWrapper': { overflowX: 'auto' } }}>
        {declaredColumns(resource, Object.fromEntries(columns.map(([name, field]) => [name, { children: <GenericField source={name} field={field} /> }])))}
      </DataTable>
      )}
      </ListRows>
    </List>
  );
}
