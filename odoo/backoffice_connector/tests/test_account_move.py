import base64

from psycopg2 import IntegrityError

from odoo.exceptions import AccessError
from odoo.tests import tagged
from odoo.tools import mute_logger

from .common import BackofficeCase

PDF = base64.b64encode(b"%PDF-1.4\n% backoffice test\n").decode()


@tagged("post_install", "-at_install")
class TestAccountMove(BackofficeCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        # An e-mail: Odoo refuses a message whose author has none.
        cls.vendor = cls.env["res.partner"].create({"name": "Backoffice test vendor", "email": "vendor@example.com"})
        cls.project = cls.env["project.project"].create({"name": "Backoffice test project"})
        # The console's API user: bills rights in the main company only.
        cls.api_user = cls._user("bo_test_api", "account.group_account_invoice", email="api@example.com")
        # A console user who is also an Odoo user, without accounting rights.
        cls.sales_user = cls._user("bo_test_sales", "sales_team.group_sale_salesman", email="sales.person@example.com")
        cls.portal_user = cls._user("bo_test_portal", "base.group_portal", email="portal@example.com")

    def setUp(self):
        super().setUp()
        self._require(self.journal)

    def _bill(self, **vals):
        return self.env["account.move"].create(dict({
            "move_type": "in_invoice", "partner_id": self.vendor.id, "journal_id": self.journal.id,
        }, **vals))

    def _notes(self, move, text):
        return move.message_ids.filtered(lambda m: text in (m.body or ""))

    def test_defaults_and_copy(self):
        move = self._bill(project_id=self.project.id, x_uploaded_by="staff@example.com",
                          x_payment_method="corporate_card", x_payment_status="paid")
        self.assertFalse(move.pnt_account_move_team_manager_validate)
        self.assertFalse(move.pnt_account_move_team_manager_deny)
        self.assertTrue(move.x_backoffice_one_call)
        self.assertTrue(move.x_backoffice_journeys)
        values = move.read(["project_id", "x_uploaded_by", "x_payment_method", "x_payment_status"])[0]
        self.assertEqual(values["project_id"][0], self.project.id)
        self.assertEqual((values["x_uploaded_by"], values["x_payment_method"], values["x_payment_status"]),
                         ("staff@example.com", "corporate_card", "paid"))
        move.write({"pnt_account_move_team_manager_validate": True, "pnt_account_move_team_manager_deny": True,
                    "x_backoffice_key": "bo-test-copy"})
        copy = move.copy()
        self.assertFalse(copy.pnt_account_move_team_manager_validate)
        self.assertFalse(copy.pnt_account_move_team_manager_deny)
        self.assertFalse(copy.x_uploaded_by)
        self.assertFalse(copy.x_payment_status)
        self.assertFalse(copy.x_backoffice_key)
        self.assertEqual(copy.x_payment_method, "corporate_card")
        self.assertEqual(copy.project_id, self.project)
        # Odoo's own payment state is left to Odoo.
        self.assertNotEqual(move.payment_state, "paid")

    def test_project_deleted(self):
        project = self.env["project.project"].create({"name": "Backoffice test project 2"})
        move = self._bill(project_id=project.id)
        project.unlink()
        self.assertFalse(move.project_id)

    def test_submission_key_unique(self):
        self._bill(x_backoffice_key="bo-test-key")
        self._bill()
        self._bill()  # moves without key are not constrained
        with self.assertRaises(IntegrityError), mute_logger("odoo.sql_db"):
            self._bill(x_backoffice_key="bo-test-key")
            self.env.flush_all()

    def _create_bill(self, user=None, **kw):
        Move = self.env["account.move"].with_user(user or self.api_user)
        vals = {"move_type": "in_invoice", "partner_id": self.vendor.id, "journal_id": self.journal.id,
                "x_uploaded_by": "sales.person@example.com"}
        attachment = {"name": "ticket.pdf", "datas": PDF, "mimetype": "application/pdf"}
        return Move.browse(Move.backoffice_create_bill(vals, attachment, **kw))

    def test_create_bill(self):
        move = self._create_bill(note="Taxi to the client", key="bo-test-bill",
                                 author={"email_from": "Ana <ana@example.com>"})
        self.assertEqual(move.move_type, "in_invoice")
        self.assertEqual(move.x_backoffice_key, "bo-test-bill")
        self.assertEqual(move.create_uid, self.api_user)
        self.assertEqual(move.message_main_attachment_id.name, "ticket.pdf")
        self.assertEqual((move.message_main_attachment_id.res_model, move.message_main_attachment_id.res_id),
                         ("account.move", move.id))
        note = self._notes(move, "Taxi to the client")
        self.assertEqual(len(note), 1)
        self.assertEqual(note.message_type, "comment")
        self.assertEqual(note.subtype_id, self.env.ref("mail.mt_note"))
        self.assertEqual(note.email_from, "Ana <ana@example.com>")
        # Same key: the same bill is answered, no second one is made.
        again = self._create_bill(note="Taxi to the client", key="bo-test-bill")
        self.assertEqual(again, move)
        self.assertEqual(self.env["account.move"].search_count([("x_backoffice_key", "=", "bo-test-bill")]), 1)
        self.assertEqual(len(self._notes(move, "Taxi to the client")), 1)

    def test_create_bill_without_key_or_note(self):
        first = self._create_bill()
        second = self._create_bill()
        self.assertNotEqual(first, second)
        self.assertFalse(first.x_backoffice_key)

    def test_create_bill_on_behalf_of(self):
        """An internal Odoo user with the console user's e-mail is the author, even without accounting rights."""
        move = self._create_bill(note="Hotel night", on_behalf_of="SALES.PERSON@example.com",
                                 author={"email_from": "ignored@example.com"})
        self.assertEqual(move.create_uid, self.sales_user)
        note = self._notes(move, "Hotel night")
        self.assertEqual(note.author_id, self.sales_user.partner_id)
        # A portal (share) user is never acted for: the API user writes and signs with author.
        move = self._create_bill(note="Train", on_behalf_of="portal@example.com",
                                 author={"author_id": self.vendor.id})
        self.assertEqual(move.create_uid, self.api_user)
        self.assertEqual(self._notes(move, "Train").author_id, self.vendor)

    def test_create_bill_refused(self):
        with self.assertRaises(AccessError):  # company not allowed to the API user
            self.env["account.move"].with_user(self.api_user).backoffice_create_bill(
                {"move_type": "in_invoice", "partner_id": self.vendor.id, "company_id": self.other_company.id},
                {"name": "x.pdf", "datas": PDF})
        with self.assertRaises(AccessError):  # no right to create moves at all
            self._create_bill(user=self.sales_user)

    def test_decide(self):
        move = self._bill()
        Move = self.env["account.move"].with_user(self.api_user)
        Move.browse(move.ids).backoffice_decide(True, "Approved by the team", author={"email_from": "boss@example.com"})
        self.assertEqual((move.pnt_account_move_team_manager_validate, move.pnt_account_move_team_manager_deny),
                         (True, False))
        note = self._notes(move, "Approved by the team")
        self.assertEqual((note.message_type, note.subtype_id), ("notification", self.env.ref("mail.mt_note")))
        self.assertEqual(note.email_from, "boss@example.com")
        Move.browse(move.ids).backoffice_decide(False, "Denied after all", on_behalf_of="sales.person@example.com")
        self.assertEqual((move.pnt_account_move_team_manager_validate, move.pnt_account_move_team_manager_deny),
                         (False, True))
        self.assertEqual(move.write_uid, self.sales_user)
        self.assertEqual(self._notes(move, "Denied after all").author_id, self.sales_user.partner_id)

    def test_author_of_another_company(self):
        """A contact of another company never signs (the API user, acting in the move's company, may not read it):
        the note goes by its name and e-mail; a contact of the move's company, or of none, signs."""
        api = self._user("bo_test_api_both", "account.group_account_invoice", email="api.both@example.com")
        api.write({"company_ids": [(4, self.other_company.id)]})
        foreign = self.env["res.partner"].create({"name": "Marta Manager", "email": "marta@example.com", "company_id": self.other_company.id})
        move = self._bill()
        Move = self.env["account.move"].with_user(api)
        Move.browse(move.ids).backoffice_decide(False, "Rejected by Marta", author={"author_id": foreign.id}, on_behalf_of="marta@example.com", message_type="comment")
        note = self._notes(move, "Rejected by Marta")
        self.assertEqual((note.message_type, note.author_id.id), ("comment", False))
        self.assertIn("marta@example.com", note.email_from)
        self.assertTrue(move.pnt_account_move_team_manager_deny)
        local = self.env["res.partner"].create({"name": "Marta (here)", "email": "marta@example.com", "company_id": self.company.id})
        Move.browse(move.ids).backoffice_decide(True, "Validated by Marta", author={"author_id": local.id}, on_behalf_of="marta@example.com")
        self.assertEqual(self._notes(move, "Validated by Marta").author_id, local)
        with self.assertRaises(AccessError):
            Move.browse(move.ids).backoffice_decide(True, "x", message_type="email")

    def test_decide_refused(self):
        # A move the API user may not see (another company's) is not decided.
        other_journal = self._require(self._make_purchase_journal(self.other_company, "BOXR"))
        other = self.env["account.move"].create({
            "move_type": "in_invoice", "partner_id": self.vendor.id, "journal_id": other_journal.id,
            "company_id": self.other_company.id,
        })
        with self.assertRaises(AccessError):
            self.env["account.move"].with_user(self.api_user).browse(other.ids).backoffice_decide(True, "no")
        self.assertFalse(other.pnt_account_move_team_manager_validate)
        # A user without write access on moves is refused.
        move = self._bill()
        with self.assertRaises(AccessError):
            self.env["account.move"].with_user(self.sales_user).browse(move.ids).backoffice_decide(True, "no")
        self.assertFalse(move.pnt_account_move_team_manager_validate)
