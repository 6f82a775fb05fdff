/**
 * The home page's counts (issue 33, item 4): what each counts, as the filters of the list its link opens, shared by
 * the server (server/services/home.ts counts with the list's own domain) and the console (the link's filter).
 */
export const HOME_FILTERS = {
  /** The signed-in user's own moves still in draft. */
  drafts: (email: string) => ({ state: ['draft'], uploadedBy: email }),
  /** Quotations, sent or not: orders waiting for confirmation. */
  ordersToConfirm: () => ({ state: ['draft', 'sent'] }),
};

/** The counts the server may answer, each with the area its link opens. */
export const HOME_COUNT_AREAS = { validation: 'validation', drafts: 'movesList', ordersToConfirm: 'orderList' } as const;
export type HomeCountName = keyof typeof HOME_COUNT_AREAS;
