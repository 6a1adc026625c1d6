history = context[:conversation_history] || []
result = {
  speaker: "agent",
  method_name: "report",
  outcome_summary: { ok: true, summary: "#{history.size} records seen" }
}
