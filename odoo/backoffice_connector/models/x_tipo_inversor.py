from lxml.builder import E

from odoo import api, fields, models, release


def list_view_mode():
    """'list' on Odoo 18+, 'tree' on 16/17 (18 renamed the view type)."""
    return "list" if release.version_info[0] >= 18 else "tree"


def window_action(model, name):
    """Window action for a model, valid on 16, 17 and 18 alike."""
    return {
        "type": "ir.actions.act_window",
        "name": name,
        "res_model": model._name,
        "view_mode": "%s,form" % list_view_mode(),
        "views": [(False, list_view_mode()), (False, "form")],
        "target": "current",
    }


class TipoInversor(models.Model):
    """Investor type, tagged on contacts (res.partner.x_studio_tipo_inversor).

    The x_ names are the ones an earlier Odoo Studio setup used; the console
    reads them as they are.
    """

    _name = "x_tipo_inversor"
    _description = "Investor type"
    _rec_name = "x_name"
    _order = "x_name"

    x_name = fields.Char(string="Name", required=True, translate=False)
    x_studio_tipo_inversor_descripcion = fields.Char(string="Description")

    @api.model
    def _backoffice_list_arch(self, tag):
        return getattr(E, tag)(
            E.field(name="x_name"),
            E.field(name="x_studio_tipo_inversor_descripcion"),
            string=self._description,
            editable="bottom",
        )

    # Default list view, generated in Python so the same module works whether
    # the view type is called 'tree' (16, 17) or 'list' (18).
    @api.model
    def _get_default_tree_view(self):
        return self._backoffice_list_arch("tree")

    @api.model
    def _get_default_list_view(self):
        return self._backoffice_list_arch("list")

    @api.model
    def backoffice_action_open(self):
        return window_action(self, "Investor types")
