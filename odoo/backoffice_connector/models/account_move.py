from odoo import fields, models


class AccountMove(models.Model):
    _inherit = "account.move"

    # Approval by the team manager in the console (validate or deny). Names kept
    # from the customer's earlier 'pnt' customisation, which the console reads.
    pnt_account_move_team_manager_validate = fields.Boolean(
        string="Validated by team manager", default=False, copy=False, tracking=True,
    )
    pnt_account_move_team_manager_deny = fields.Boolean(
        string="Denied by team manager", default=False, copy=False, tracking=True,
    )
    project_id = fields.Many2one(
        "project.project", string="Project", index=True, ondelete="set null",
        help="Project the bill or expense was uploaded for; its journal settings override the company's.",
    )
    x_uploaded_by = fields.Char(
        string="Uploaded by", copy=False, index=True,
        help="E-mail of the console user who uploaded the document.",
    )
    x_payment_method = fields.Selection(
        [
            ("corporate_card", "Corporate card"),
            ("personal_card", "Personal card"),
            ("direct_debit", "Direct debit"),
        ],
        string="Payment method",
        help="How the uploader paid the expense (stated in the console).",
    )
    x_payment_status = fields.Selection(
        [("paid", "Paid"), ("unpaid", "Unpaid")],
        string="Declared payment status", copy=False,
        help="What the uploader stated. Odoo's own payment status stays computed from reconciliation.",
    )
