history = context["conversation_history"]
rec = history[-3]
ref = rec["outcome_summary"]["content_ref"]
parts = rec.get("parts", [])
result = {"ref": ref, "n_parts": len(parts), "need": rec.get("need")}
