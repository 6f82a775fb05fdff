from odoo import api, fields, models


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

    # The console's submission key (issue 28): one bill per form submission, however many times the form was sent.
    # Holds "pending:<attempt>" while the console writes a bill in several calls, the key once the bill is whole.
    x_backoffice_key = fields.Char(string="Console submission key", copy=False, readonly=True)

    def init(self):
        super().init()
        unique_submission_key(self.env.cr, self._table)

    @api.model
    def backoffice_create_bill(self, vals, attachment, note=None, key=None, author=None):
        """A bill with its file and the uploader's note, in one call (one transaction): whole or not at all.

        ``key`` is the console's submission key: a bill already made with it is answered again instead of a
        second one. ``author`` (``author_id`` or ``email_from``) signs the note as the console user.
        Returns the bill's id.
        """
        if key:
            found = self.search([("x_backoffice_key", "=", key)], limit=1)
            if found:
                return found.id
        move = self.create(dict(vals, x_backoffice_key=key or False))
        file = self.env["ir.attachment"].create(dict(attachment, res_model="account.move", res_id=move.id))
        move.message_main_attachment_id = file
        if note:
            move.message_post(body=note, message_type="comment", subtype_xmlid="mail.mt_note", **(author or {}))
        return move.id

    def backoffice_decide(self, validate, note, author=None):
        """A manager's decision with its note, in one call (one transaction): the flags never without their note."""
        for move in self:
            move.write({
                "pnt_account_move_team_manager_validate": bool(validate),
                "pnt_account_move_team_manager_deny": not validate,
            })
            move.message_post(body=note, message_type="notification", subtype_xmlid="mail.mt_note", **(author or {}))
        return True


def unique_submission_key(cr, table):
    """One record per submission key; records without one are not constrained (a plain SQL index: Odoo 16 to 19)."""
    cr.execute(
        'CREATE UNIQUE INDEX IF NOT EXISTS "%s_x_backoffice_key_uniq" ON "%s" (x_backoffice_key)'
        " WHERE x_backoffice_key IS NOT NULL" % (table, table)
    )
