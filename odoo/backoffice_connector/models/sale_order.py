from odoo import fields, models


class SaleOrder(models.Model):
    _inherit = "sale.order"

    x_uploaded_by = fields.Char(
        string="Uploaded by", copy=False, index=True,
        help="E-mail of the console user who created the order.",
    )
