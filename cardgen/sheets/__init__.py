"""Cards as spreadsheets: one row a card, one column a field, named as in the YAML (CSV and XLSX)."""

from cardgen.sheets.export import export_sheet
from cardgen.sheets.importer import import_sheet

__all__ = ["export_sheet", "import_sheet"]
