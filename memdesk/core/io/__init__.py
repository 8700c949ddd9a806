"""Import and export. One module per format; plan.py previews and applies.

Import: plan_file(store, path, format="auto") -> ImportPlan (writes nothing);
apply_import(store, plan, on_conflict="skip"|"theirs", strict=False) -> Changes
(one transaction, after a backup). sources.py tells formats apart by content.
Export: export.export_file / export_text (native, seed000, markdown, csv).
"""
