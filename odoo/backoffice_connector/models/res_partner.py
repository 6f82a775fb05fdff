from odoo import fields, models

from .account_move import unique_submission_key


class ResPartner(models.Model):
    _inherit = "res.partner"

    x_studio_owner_employee = fields.Many2one(
        "hr.employee", string="Owner employee", ondelete="set null", index=True,
        help="Employee who owns the relationship with this contact.",
    )
    x_studio_tipo_inversor = fields.Many2many(
        "x_tipo_inversor",
        "x_res_partner_x_tipo_inversor_rel",
        "res_partner_id",
        "x_tipo_inversor_id",
        string="Investor types",
    )
    from_event_assistant = fields.Many2one(
        "x_evento_contactos", string="Event contact list", ondelete="set null", index=True,
        help="Event contact list this contact was gathered from.",
    )
    x_notes = fields.Text(string="Backoffice notes")

    # The console's submission key (issue 28): one contact per form submission, however many times it was sent.
    x_backoffice_key = fields.Char(string="Console submission key", copy=False, readonly=True)

    def init(self):
        super().init()
        unique_submission_key(self.env.cr, self._table)
