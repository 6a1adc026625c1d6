history = context[:conversation_history] || []
kinds = {}
history.each do |rec|
  outcome = rec[:outcome_summary] || {}
  next unless outcome[:ok] == false

  method = rec[:method_name].to_s
  kind = outcome[:error_type].to_s
  next if method.empty? || kind.empty?

  list = (kinds[method] ||= [])
  list << kind unless list.include?(kind)
end
kinds
