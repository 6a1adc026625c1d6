history = context[:conversation_history] || []
depths = {}
history.each do |rec|
  name = rec[:method_name]
  depth = rec[:depth]
  next if name.nil? || name.empty? || !depth.is_a?(Integer)

  (depths[name] ||= []) << depth
end
depths.transform_values { |ds| ds.uniq.sort }.select { |_name, ds| ds.size > 1 }
