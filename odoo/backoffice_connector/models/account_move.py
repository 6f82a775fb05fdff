from odoo import _, fields, models
from odoo.exceptions import AccessError

from .journeys import run_journey_steps


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

    # Present from connector 1.2.0 on, the version whose one-call methods below take ``on_behalf_of``: the console's
    # feature probe reads fields_get (methods are not listed there), so this field tells it the methods are here.
    x_backoffice_one_call = fields.Boolean(
        string="Console writes in one call", compute="_compute_x_backoffice_one_call",
        help="Always set: this connector's backoffice_create_bill and backoffice_decide (with on_behalf_of) exist.",
    )

    def _compute_x_backoffice_one_call(self):
        for move in self:
            move.x_backoffice_one_call = True

    # Present from connector 1.3.0 on: backoffice_journeys below, and backoffice_decide's message_type.
    x_backoffice_journeys = fields.Boolean(
        string="Console checks its flows here", compute="_compute_x_backoffice_journeys",
        help="Always set: this connector's backoffice_journeys and backoffice_decide(message_type) exist.",
    )

    def _compute_x_backoffice_journeys(self):
        for move in self:
            move.x_backoffice_journeys = True

    def backoffice_journeys(self, steps):
        """The console's flows, run as the API user and undone (``npm run odoo:check -- --journeys``).

        ``steps`` are calls as the console makes them ({model, method, args, kwargs}; a value {"$ref": n} stands for
        what step n answered). They run in one savepoint that is rolled back, so nothing stays in the books; each
        step's outcome is answered ({ok, result} or {ok: false, name, message}). See journeys.py.
        """
        return run_journey_steps(self.env, steps)

    # Called on an empty recordset (no @api.model): execute_kw passes the record ids first, JSON-2 names them
    # `ids`, so the same call works on Odoo 16 to 19.
    def backoffice_create_bill(self, vals, attachment, note=None, key=None, author=None, on_behalf_of=None):
        """A bill with its file and the uploader's note, in one call (one transaction): whole or not at all.

        ``key`` is the console's submission key: a bill already made with it is answered again instead of a
        second one. ``on_behalf_of`` is the console user's e-mail: when an Odoo user has it (see
        ``_backoffice_acting``), the bill, its "created" message and the note are that user's; else the note is
        signed with ``author`` (``author_id`` or ``email_from``). Returns the bill's id.
        """
        if key:
            found = self.search([("x_backoffice_key", "=", key)], limit=1)
            if found:
                return found.id
        company_id = vals.get("company_id") or self.env.company.id
        self.env["ir.model.access"].check("account.move", "create")
        if company_id not in self.env.user.company_ids.ids:
            raise AccessError(_("The API user cannot create in company %s.", company_id))
        acting, signed = self._backoffice_acting(on_behalf_of, company_id, author)
        moves = self.with_env(acting).with_context(allowed_company_ids=[company_id])
        move = moves.create(dict(vals, x_backoffice_key=key or False))
        file = moves.env["ir.attachment"].create(dict(attachment, res_model="account.move", res_id=move.id))
        move.message_main_attachment_id = file
        if note:
            move.message_post(body=note, message_type="comment", subtype_xmlid="mail.mt_note", **signed)
        return move.id

    def backoffice_decide(self, validate, note, author=None, on_behalf_of=None, message_type="notification"):
        """A manager's decision with its note, in one call (one transaction): the flags never without their note.

        The flags' tracking and the note are the console user's when ``on_behalf_of`` names an Odoo user of the
        move's company, else the API user's with the note signed by ``author``. A note that carries the manager's
        comment is sent with ``message_type`` "comment" (1.3.0): a person's message, as the console lists them.
        """
        if message_type not in ("notification", "comment"):
            raise AccessError(_("Unknown message type %s.", message_type))
        self.env["ir.model.access"].check("account.move", "write")
        # The API user's record rules: only moves it may see are decided (search applies them, Odoo 16 to 19).
        visible = self.search([("id", "in", self.ids)])
        if len(visible) != len(self):
            raise AccessError(_("The API user cannot change some of these moves."))
        for move in self:
            acting, signed = self._backoffice_acting(on_behalf_of, move.company_id.id, author)
            move = move.with_env(acting).with_context(allowed_company_ids=[move.company_id.id])
            move.write({
                "pnt_account_move_team_manager_validate": bool(validate),
                "pnt_account_move_team_manager_deny": not validate,
            })
            move.message_post(body=note, message_type=message_type, subtype_xmlid="mail.mt_note", **signed)
        return True

    def _backoffice_acting(self, email, company_id, author):
        """The environment a write on behalf of the console user runs in, and how its note is signed.

        The console user's Odoo user (same login or e-mail, active, internal, with the company) when there is one: the
        write runs as that user so that Odoo's own tracking, "bill created" message and note carry them, as in Odoo's
        screens. It runs with sudo() because that user may lack accounting rights (a sales person uploading an
        expense): this is safe because the API user's own rights were checked before (ir.model.access and its
        record rules or companies), and the console has checked the console user's permission, so sudo() never
        lets through a write the API user could not make: only the author changes. No other user's credentials
        are used.

        Otherwise the API user writes, and the note is signed by a contact of the console user that the company may
        use (1.3.0): their Odoo user's own contact, or a contact with their e-mail, of that company or of none. A
        contact of another company is never the author (a manager whose employee, and so its contact, is in company
        1 deciding a bill of company 2): the API user, acting in this company, could not read it, and Odoo would
        refuse the whole write. Without one, the note is sent from the console user's name and e-mail (``author``'s
        ``email_from``, or the contact's).
        """
        signed = dict(author or {})
        user = self.env["res.users"]
        if email:
            user = user.sudo().search(["|", ("login", "=ilike", email), ("email", "=ilike", email), ("share", "=", False)], order="id", limit=1)
            if user and company_id in user.company_ids.ids:
                return self.with_user(user).sudo().env, {}
        usable = [("company_id", "in", [False, company_id])]
        given = self.env["res.partner"].sudo().browse(signed.get("author_id") or []).exists()
        if given:
            if given.filtered_domain(usable):
                return self.env, {"author_id": given.id}
            # A contact this company may not use signs by its name and e-mail instead.
            return self.env, {"author_id": False, "email_from": given.email_formatted or email or given.name}
        if user and user.partner_id.filtered_domain(usable):
            return self.env, {"author_id": user.partner_id.id}
        return self.env, {"author_id": False, "email_from": signed.get("email_from") or email or _("Console user")}


def unique_submission_key(cr, table):
    """One record per submission key; records without one are not constrained (a plain SQL index: Odoo 16 to 19)."""
    cr.execute(
        'CREATE UNIQUE INDEX IF NOT EXISTS "%s_x_backoffice_key_uniq" ON "%s" (x_backoffice_key)'
        " WHERE x_backoffice_key IS NOT NULL" % (table, table)
    )
