from odoo import _, api, fields, models
from odoo.exceptions import ValidationError

JOURNAL_FIELDS = ("x_facturas_journal_id", "x_gastos_journal_id")


def journal_settings_fields(company_expr):
    """The four journal settings shared by res.company and project.project.

    ``company_expr`` is the client-side expression giving the record's company,
    used to restrict the journal choice to purchase journals of that company.
    """
    domain = "[('type', '=', 'purchase'), ('company_id', 'in', %s)]" % company_expr
    return {
        "x_facturas_journal_id": fields.Many2one(
            "account.journal", string="Invoices journal", domain=domain, ondelete="set null",
            help="Purchase journal where the console records supplier invoices (facturas).",
        ),
        "x_facturas_account": fields.Char(
            string="Invoices account (code)",
            help="Code of an account of the company's chart (e.g. 400000) used on invoice lines.",
        ),
        "x_gastos_journal_id": fields.Many2one(
            "account.journal", string="Expenses journal", domain=domain, ondelete="set null",
            help="Purchase journal where the console records expense tickets (gastos).",
        ),
        "x_gastos_account": fields.Char(
            string="Expenses account (code)",
            help="Code of an account of the company's chart (e.g. 629000) used on expense lines.",
        ),
    }


def check_journal_company(records, company_of):
    for record in records:
        company = company_of(record)
        if not company:
            continue
        # 17+ branches may use their parent companies' journals (parent_ids includes the company itself).
        allowed = company.parent_ids if "parent_ids" in company._fields else company
        for fname in JOURNAL_FIELDS:
            journal = record[fname]
            if journal and journal.company_id and journal.company_id not in allowed:
                raise ValidationError(_(
                    "The journal %(journal)s belongs to %(journal_company)s, not to %(company)s.",
                    journal=journal.display_name,
                    journal_company=journal.company_id.display_name,
                    company=company.display_name,
                ))


class ResCompany(models.Model):
    _inherit = "res.company"

    _fields_spec = journal_settings_fields("[id]")
    x_facturas_journal_id = _fields_spec["x_facturas_journal_id"]
    x_facturas_account = _fields_spec["x_facturas_account"]
    x_gastos_journal_id = _fields_spec["x_gastos_journal_id"]
    x_gastos_account = _fields_spec["x_gastos_account"]
    del _fields_spec

    @api.constrains(*JOURNAL_FIELDS)
    def _check_backoffice_journals_company(self):
        check_journal_company(self, lambda company: company)
