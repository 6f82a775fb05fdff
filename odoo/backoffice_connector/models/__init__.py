from . import backoffice_list_mixin
from . import x_tipo_inversor
from . import x_evento_contactos
from . import res_company
from . import project_project
from . import account_move
from . import sale_order
from . import res_partner
