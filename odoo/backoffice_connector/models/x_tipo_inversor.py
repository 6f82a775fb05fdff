from odoo import fields, models


class TipoInversor(models.Model):
    """Investor type, tagged on contacts (res.partner.x_studio_tipo_inversor).

    The x_ names are the ones an earlier Odoo Studio setup used; the console
    reads them as they are.
    """

    _name = "x_tipo_inversor"
    _inherit = ["backoffice.list.mixin"]
    _description = "Investor type"
    _rec_name = "x_name"
    _order = "x_name"

    x_name = fields.Char(string="Name", required=True, translate=False)
    x_studio_tipo_inversor_descripcion = fields.Char(string="Description")

    _backoffice_list_fields = (("x_name", {}), ("x_studio_tipo_inversor_descripcion", {}))
    _backoffice_list_editable = True
    _backoffice_action_name = "Investor types"
