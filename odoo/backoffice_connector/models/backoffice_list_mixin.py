from lxml.builder import E

from odoo import api, models, release


class BackofficeListMixin(models.AbstractModel):
    """A default list view and a menu action that work on Odoo 16, 17 and 18 alike.

    18 renamed the list view type from 'tree' to 'list', so a module that ships
    list views or actions in XML cannot serve all three: the list view is built
    here, for whichever name the running Odoo asks for, and the menus open the
    models through a server action calling backoffice_action_open().
    """

    _name = "backoffice.list.mixin"
    _description = "Backoffice list view (Odoo 16-18)"

    # (field name, extra view attributes) of each column; set by the models.
    _backoffice_list_fields = ()
    _backoffice_list_editable = False
    _backoffice_action_name = ""

    @api.model
    def _backoffice_list_arch(self, tag):
        columns = [E.field(name=name, **attrs) for name, attrs in self._backoffice_list_fields]
        extra = {"editable": "bottom"} if self._backoffice_list_editable else {}
        return getattr(E, tag)(*columns, string=self._description, **extra)

    @api.model
    def _get_default_tree_view(self):
        return self._backoffice_list_arch("tree")

    @api.model
    def _get_default_list_view(self):
        return self._backoffice_list_arch("list")

    @api.model
    def backoffice_action_open(self):
        mode = "list" if release.version_info[0] >= 18 else "tree"
        return {
            "type": "ir.actions.act_window",
            "name": self._backoffice_action_name or self._description,
            "res_model": self._name,
            "view_mode": "%s,form" % mode,
            "views": [(False, mode), (False, "form")],
            "target": "current",
        }
