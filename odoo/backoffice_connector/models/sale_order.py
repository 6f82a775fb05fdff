from odoo import fields, models

from .account_move import unique_submission_key


class SaleOrder(models.Model):
    _inherit = "sale.order"

    x_uploaded_by = fields.Char(
        string="Uploaded by", copy=False, index=True,
        help="E-mail of the console user who created the order.",
    )

    # The console's submission key (issue 28): one order per form submission, however many times it was sent.
    x_backoffice_key = fields.Char(string="Console submission key", copy=False, readonly=True)

    def init(self):
        super().init()
        unique_submission_key(self.env.cr, self._table)
