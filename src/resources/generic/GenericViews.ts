/** The generic views in one module, so that they load as one piece when a generic screen is first opened. */
export { GenericCreate } from './GenericCreate';
export { GenericEdit } from './GenericEdit';
export { GenericList } from './GenericList';
export { GenericShow } from './GenericShow';
