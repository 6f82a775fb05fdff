# Same code for Odoo 16.0 to 19.0 Community (see README.md); installed on 19.0 without a warning.
{
    "name": "Backoffice connector",
    # Series-less on purpose: Odoo prefixes it with the running series, so the
    # installed version reads 17.0.1.0.0 on Odoo 17 (16.0.1.0.0 / 18.0.1.0.0 on
    # 16 / 18). A literal "17.0.1.0.0" is refused by Odoo 18's manifest check.
    "version": "1.3.0",
    "summary": "Fields and models the back-office console reads and writes over JSON-RPC",
    "category": "Accounting",
    # Plain text on purpose: without "description" Odoo reads README.md and renders it
    # as reStructuredText, which logs docutils warnings for Markdown tables.
    "description": """
Fields and models the back-office console reads and writes over JSON-RPC: journal
settings on companies and projects, team-manager approval and upload data on bills
and expenses, uploader on sales orders, owner, investor types and event contact
lists on contacts. Payment modes (OCA account_payment_mode) are optional.
See README.md in the module folder.
""",
    "author": "Backoffice console",
    "license": "LGPL-3",
    "depends": [
        "account",
        "sale_management",
        "sale_margin",
        "hr",
        "event",
        "contacts",
        "project",
    ],
    "data": [
        "security/ir.model.access.csv",
        "views/res_company_views.xml",
        "views/project_project_views.xml",
        "views/account_move_views.xml",
        "views/sale_order_views.xml",
        "views/res_partner_views.xml",
        "views/x_tipo_inversor_views.xml",
        "views/x_evento_contactos_views.xml",
        "views/menus.xml",
    ],
    "pre_init_hook": "pre_init_hook",
    "installable": True,
    "application": False,
}
