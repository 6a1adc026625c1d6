replies = (context[:conversation_history] || []).select { |r| r[:role] == "assistant" && r[:goal] && r[:goal] != "" }
named = replies.select { |r| r[:content].to_s.casecmp?(r[:goal]) || r[:content].to_s.downcase.include?(r[:goal].downcase) }
{
  replies_with_goal: replies.size,
  naming_goal: named.map { |r| r[:call_id] },
  share: replies.empty? ? 0.0 : (named.size.to_f / replies.size).round(3)
}
