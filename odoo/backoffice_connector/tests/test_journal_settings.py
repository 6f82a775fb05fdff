from odoo.exceptions import ValidationError
from odoo.tests import tagged

from .common import BackofficeCase


@tagged("post_install", "-at_install")
class TestJournalSettings(BackofficeCase):
    """Journal settings of companies and projects, and the constraint on their journals' company."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.other_journal = cls._make_purchase_journal(cls.other_company, "BOXQ")

    def setUp(self):
        super().setUp()
        self._require(self.journal)
        self._require(self.other_journal)

    def test_company_round_trip(self):
        self.company.write({
            "x_facturas_journal_id": self.journal.id, "x_facturas_account": "400000",
            "x_gastos_journal_id": self.journal.id, "x_gastos_account": "629000",
        })
        values = self.company.read(["x_facturas_journal_id", "x_facturas_account", "x_gastos_journal_id",
                                    "x_gastos_account"])[0]
        self.assertEqual(values["x_facturas_journal_id"][0], self.journal.id)
        self.assertEqual(values["x_gastos_journal_id"][0], self.journal.id)
        self.assertEqual((values["x_facturas_account"], values["x_gastos_account"]), ("400000", "629000"))

    def test_company_refuses_other_companys_journal(self):
        for name in ("x_facturas_journal_id", "x_gastos_journal_id"):
            with self.subTest(field=name), self.assertRaises(ValidationError):
                self.company.write({name: self.other_journal.id})

    def test_branch_uses_parent_journal(self):
        if "parent_ids" not in self.company._fields:
            self.skipTest("no branches before Odoo 17")
        branch = self.env["res.company"].create({"name": "Backoffice test branch", "parent_id": self.company.id})
        branch.x_gastos_journal_id = self.journal  # the parent's: allowed
        self.assertEqual(branch.x_gastos_journal_id, self.journal)
        with self.assertRaises(ValidationError):
            branch.x_facturas_journal_id = self.other_journal

    def test_project_round_trip(self):
        project = self.env["project.project"].create({
            "name": "Backoffice test project", "company_id": self.company.id,
            "x_facturas_journal_id": self.journal.id, "x_facturas_account": "400100",
            "x_gastos_journal_id": self.journal.id, "x_gastos_account": "629100",
        })
        values = project.read(["x_facturas_journal_id", "x_gastos_journal_id", "x_gastos_account"])[0]
        self.assertEqual(values["x_facturas_journal_id"][0], self.journal.id)
        self.assertEqual(values["x_gastos_journal_id"][0], self.journal.id)
        self.assertEqual(values["x_gastos_account"], "629100")

    def test_project_journal_company(self):
        project = self.env["project.project"].create({"name": "Backoffice test project", "company_id": self.company.id})
        with self.assertRaises(ValidationError):
            project.x_gastos_journal_id = self.other_journal
        project.x_gastos_journal_id = self.journal
        # Moving the project to another company re-checks its journals.
        with self.assertRaises(ValidationError):
            project.company_id = self.other_company

    def test_project_without_company_takes_any_journal(self):
        if self.env["project.project"]._fields["company_id"].required:
            self.skipTest("a project's company is required before Odoo 17 (NOT NULL on 16)")
        project = self.env["project.project"].create({"name": "Backoffice test project", "company_id": False})
        project.write({"x_facturas_journal_id": self.journal.id, "x_gastos_journal_id": self.other_journal.id})
        self.assertEqual(project.x_gastos_journal_id, self.other_journal)

    def test_journal_deleted_empties_settings(self):
        self.company.x_gastos_journal_id = self.journal
        project = self.env["project.project"].create({"name": "Backoffice test project", "x_gastos_journal_id": self.journal.id})
        self.journal.unlink()
        self.assertFalse(self.company.x_gastos_journal_id)
        self.assertFalse(project.x_gastos_journal_id)
