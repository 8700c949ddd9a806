<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>App</name>
    <message>
        <source>{path} already exists; choose “Open database” to use it.</source>
        <translation>{path} 已存在；要使用它，请选择“打开数据库”。</translation>
    </message>
    <message>
        <source>{error}

There is no backup of this file.</source>
        <translation>{error}

这个文件没有备份。</translation>
    </message>
    <message>
        <source>There is no database at {path}.</source>
        <translation>{path} 处没有数据库。</translation>
    </message>
    <message>
        <source>Create a new, empty database there</source>
        <translation>在那里新建一个空数据库</translation>
    </message>
    <message>
        <source>If you meant an existing database, check the path: nothing has been created.</source>
        <translation>如果你要打开的是已有的数据库，请检查路径：什么都还没有创建。</translation>
    </message>
    <message>
        <source>The database cannot be opened.</source>
        <translation>无法打开数据库。</translation>
    </message>
    <message>
        <source>Open the newest backup ({when})</source>
        <translation>打开最新的备份（{when}）</translation>
    </message>
    <message>
        <source>another program</source>
        <translation>另一个程序</translation>
    </message>
    <message>
        <source>The backup was not restored: {path} is open in {holders}. Close it there and try again.</source>
        <translation>备份没有还原：{path} 正在 {holders} 中打开。请先在那里关闭它，再试一次。</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>{error}

The damaged file is kept beside the backups.</source>
        <translation>{error}

损坏的文件已保留在备份旁边。</translation>
    </message>
</context>
<context>
    <name>Asker</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Persona colour</source>
        <translation>角色颜色</translation>
    </message>
</context>
<context>
    <name>BrowserPane</name>
    <message>
        <source>Building the search index</source>
        <translation>正在建立搜索索引</translation>
    </message>
    <message>
        <source>Loading the word lists</source>
        <translation>正在载入词表</translation>
    </message>
    <message>
        <source>Opening the search index</source>
        <translation>正在打开搜索索引</translation>
    </message>
    <message>
        <source>Embedding memories</source>
        <translation>正在为记忆生成语义向量</translation>
    </message>
    <message>
        <source>Searching</source>
        <translation>正在搜索</translation>
    </message>
    <message>
        <source>All memories</source>
        <translation>全部记忆</translation>
    </message>
    <message>
        <source>Updating the search index</source>
        <translation>正在更新搜索索引</translation>
    </message>
</context>
<context>
    <name>ChainPanel</name>
    <message>
        <source>This memory has not replaced another one, and nothing has replaced it.</source>
        <translation>这条记忆没有取代其他记忆，也没有被其他记忆取代。</translation>
    </message>
    <message>
        <source>Oldest first. Double-click to open one.</source>
        <translation>从旧到新排列。双击可打开。</translation>
    </message>
    <message>
        <source>replaced by the next</source>
        <translation>被下一条取代</translation>
    </message>
    <message>
        <source>this memory</source>
        <translation>当前记忆</translation>
    </message>
    <message>
        <source>replacement</source>
        <translation>取代者</translation>
    </message>
</context>
<context>
    <name>ConflictDialog</name>
    <message>
        <source>Changed elsewhere</source>
        <translation>已在别处被修改</translation>
    </message>
    <message>
        <source>While you were editing, this memory was changed somewhere else (now version {version}, changed {when}). Nothing has been overwritten. Choose what to keep.</source>
        <translation>在你编辑期间，这条记忆在别处被修改了（现在是第 {version} 版，修改于 {when}）。没有任何内容被覆盖。请选择要保留的版本。</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Content: from the saved version to yours</source>
        <translation>内容：从已保存的版本到你的版本</translation>
    </message>
    <message>
        <source>Merged content (edit freely). Other fields: the side that changed them wins; where both did, yours.</source>
        <translation>合并后的内容（可随意修改）。其他字段：谁改了就用谁的；双方都改了的，用你的。</translation>
    </message>
    <message>
        <source>Your version</source>
        <translation>你的版本</translation>
    </message>
    <message>
        <source>Version saved meanwhile</source>
        <translation>期间保存的版本</translation>
    </message>
    <message>
        <source>Keep your version</source>
        <translation>保留你的版本</translation>
    </message>
    <message>
        <source>Take the version saved meanwhile</source>
        <translation>采用期间保存的版本</translation>
    </message>
    <message>
        <source>Merge by editing…</source>
        <translation>手动合并…</translation>
    </message>
    <message>
        <source>Save merged</source>
        <translation>保存合并结果</translation>
    </message>
    <message>
        <source>Keep editing</source>
        <translation>继续编辑</translation>
    </message>
    <message>
        <source>Save your version over the one saved meanwhile</source>
        <translation>用你的版本覆盖期间保存的版本</translation>
    </message>
    <message>
        <source>Drop your edits and show the saved version</source>
        <translation>放弃你的修改，显示已保存的版本</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
</context>
<context>
    <name>ConnectionLabel</name>
    <message>
        <source>Database gone</source>
        <translation>数据库已不存在</translation>
    </message>
    <message>
        <source>The database no longer exists on the server: nothing more can be saved to it.</source>
        <translation>服务器上已没有这个数据库：无法再向它保存任何内容。</translation>
    </message>
    <message>
        <source>Connected to the server again</source>
        <translation>已重新连接到服务器</translation>
    </message>
    <message>
        <source>Reconnecting…</source>
        <translation>正在重新连接…</translation>
    </message>
    <message>
        <source>The connection to the database server was lost. MemDesk keeps trying; unsaved edits stay open.</source>
        <translation>与数据库服务器的连接已断开。MemDesk 会继续尝试重连；未保存的编辑仍保留在编辑器中。</translation>
    </message>
</context>
<context>
    <name>ContextPreviewDialog</name>
    <message>
        <source>Context preview</source>
        <translation>上下文预览</translation>
    </message>
    <message>
        <source>The user&apos;s message (optional): memories are ranked against it</source>
        <translation>用户的消息（可选）：按它为记忆排序</translation>
    </message>
    <message>
        <source>What the assistant receives, word for word (its format is the same in every language):</source>
        <translation>助手收到的原文（无论界面语言，格式都相同）：</translation>
    </message>
    <message>
        <source>Persona</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Global</source>
        <translation>全局</translation>
    </message>
    <message>
        <source>Memory is switched off for this persona (autoSaveMemory): the assistant receives no memories and is offered no memory tools.</source>
        <translation>记忆已关闭（autoSaveMemory）：此角色的助手收不到任何记忆，也不会获得记忆工具。</translation>
    </message>
    <message>
        <source>No memories to send: the assistant receives an empty brief.</source>
        <translation>没有可发送的记忆：助手收到的记忆摘要为空。</translation>
    </message>
    <message>
        <source>The search index is still being built: memories are ranked by importance, heat and recency, not by the message.</source>
        <translation>搜索索引仍在建立：记忆按重要度、热度和新近程度排序，而不是按消息。</translation>
    </message>
    <message>
        <source>estimated: one per Chinese character, one per 4 letters of other words</source>
        <translation>估算：每个汉字计 1 个，其他单词每 4 个字母计 1 个</translation>
    </message>
    <message>
        <source>{n} tokens ({how}) · {long} long-term, {short} short-term memories</source>
        <translation>{n} 个词元（{how}）· 长期记忆 {long} 条，短期记忆 {short} 条</translation>
    </message>
</context>
<context>
    <name>DetailsBox</name>
    <message>
        <source>Details</source>
        <translation>详细信息</translation>
    </message>
    <message>
        <source>Dedup key, times, use, heat, tier, source, version and supersede chain</source>
        <translation>去重键、时间、使用次数、热度、层级、来源、版本和取代链</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <source>Last access</source>
        <translation>上次访问</translation>
    </message>
    <message>
        <source>Accesses</source>
        <translation>访问次数</translation>
    </message>
    <message>
        <source>Heat</source>
        <translation>热度</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation>层级</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
</context>
<context>
    <name>ExamplesBanner</name>
    <message>
        <source>This database is empty. Load a few example memories (in Chinese) to see how MemDesk works? Nothing is written unless you say yes.</source>
        <translation>数据库还是空的。要载入几条中文示例记忆，看看记忆台怎么用吗？在你同意之前不会写入任何内容。</translation>
    </message>
    <message>
        <source>Load examples</source>
        <translation>载入示例</translation>
    </message>
    <message>
        <source>No, thanks</source>
        <translation>不用了</translation>
    </message>
</context>
<context>
    <name>ExplainPanel</name>
    <message>
        <source>Matched words</source>
        <translation>匹配的词</translation>
    </message>
    <message>
        <source>Matched character pairs</source>
        <translation>匹配到的相邻两字</translation>
    </message>
    <message>
        <source>Keyword score (words)</source>
        <translation>关键词得分（按词）</translation>
    </message>
    <message>
        <source>Keyword score (character pairs)</source>
        <translation>关键词得分（按相邻两字）</translation>
    </message>
    <message>
        <source>Keyword score</source>
        <translation>关键词得分</translation>
    </message>
    <message>
        <source>Meaning similarity</source>
        <translation>语义相似度</translation>
    </message>
    <message>
        <source>Place in each ranking</source>
        <translation>在各排序中的名次</translation>
    </message>
    <message>
        <source>Fused relevance (0–1)</source>
        <translation>融合相关度（0–1）</translation>
    </message>
    <message>
        <source>Importance (0–1)</source>
        <translation>重要性（0–1）</translation>
    </message>
    <message>
        <source>Heat (0–1)</source>
        <translation>热度（0–1）</translation>
    </message>
    <message>
        <source>Freshness (0–1)</source>
        <translation>新鲜度（0–1）</translation>
    </message>
    <message>
        <source>Final score</source>
        <translation>最终得分</translation>
    </message>
    <message>
        <source>Found by</source>
        <translation>命中方式</translation>
    </message>
    <message>
        <source>Place in the results</source>
        <translation>结果中的名次</translation>
    </message>
    <message>
        <source>keywords</source>
        <translation>关键词</translation>
    </message>
    <message>
        <source>related words</source>
        <translation>相关词</translation>
    </message>
    <message>
        <source>exact text</source>
        <translation>原文匹配</translation>
    </message>
    <message>
        <source>next to a match, same conversation</source>
        <translation>紧挨匹配项（同一段对话）</translation>
    </message>
    <message>
        <source>Hide the numbers</source>
        <translation>隐藏得分明细</translation>
    </message>
    <message>
        <source>Open a search result to see why it was found.</source>
        <translation>打开一条搜索结果，即可看到它为什么被找到。</translation>
    </message>
    <message>
        <source>Search “{query}”: {why}</source>
        <translation>搜索「{query}」：{why}</translation>
    </message>
    <message>
        <source>Found by this search.</source>
        <translation>被这次搜索找到。</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>“{term}”</source>
        <translation>「{term}」</translation>
    </message>
    <message>
        <source>Matched {terms} in the {places}</source>
        <translation>在{places}中匹配到{terms}</translation>
    </message>
    <message>
        <source>Matched {terms}</source>
        <translation>匹配到{terms}</translation>
    </message>
    <message>
        <source>{nth} by keywords</source>
        <translation>关键词排名{nth}</translation>
    </message>
    <message>
        <source>{nth} by meaning</source>
        <translation>语义排名{nth}</translation>
    </message>
    <message>
        <source>found as exact text</source>
        <translation>按原文找到</translation>
    </message>
    <message>
        <source>{nth} through related words</source>
        <translation>通过相关词排名{nth}</translation>
    </message>
    <message>
        <source>saved next to a match in the same conversation</source>
        <translation>与命中的记忆保存于同一次对话</translation>
    </message>
    <message>
        <source>{nth} in the results</source>
        <translation>在结果中排{nth}</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>.</source>
        <translation>。</translation>
    </message>
    <message>
        <source>ranked</source>
        <translation>靠前</translation>
    </message>
    <message>
        <source>#{n}</source>
        <translation>第 {n}</translation>
    </message>
    <message>
        <source>title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>content</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>group</source>
        <translation>分组</translation>
    </message>
    <message>
        <source>{first} and {last}</source>
        <translation>{first}和{last}</translation>
    </message>
    <message>
        <source>meaning</source>
        <translation>语义</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>排序</translation>
    </message>
    <message>
        <source>Show the numbers</source>
        <translation>查看得分明细</translation>
    </message>
    <message>
        <source>Matched by pinyin</source>
        <translation>拼音匹配</translation>
    </message>
    <message>
        <source>Matched across traditional and simplified</source>
        <translation>繁简匹配</translation>
    </message>
    <message>
        <source>Keyword score (pinyin)</source>
        <translation>关键词得分（拼音）</translation>
    </message>
    <message>
        <source>Part</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>数值</translation>
    </message>
</context>
<context>
    <name>HistoryPanel</name>
    <message>
        <source>Global</source>
        <translation>全局</translation>
    </message>
    <message>
        <source>Put back the earlier values</source>
        <translation>恢复修改前的内容</translation>
    </message>
    <message>
        <source>Undo this change by restoring what it replaced (can be undone)</source>
        <translation>恢复这次修改之前的内容，以撤回这次修改（之后仍可撤销）</translation>
    </message>
    <message>
        <source>No changes yet: this memory is as it was first saved.</source>
        <translation>还没有修改记录：这条记忆保持着第一次保存时的样子。</translation>
    </message>
    <message>
        <source>{when} · {reason} · version {version}</source>
        <translation>{when} · {reason} · 第 {version} 版</translation>
    </message>
</context>
<context>
    <name>HitMarks</name>
    <message>
        <source>tag {tags}</source>
        <translation>标签 {tags}</translation>
    </message>
    <message>
        <source>group {group}</source>
        <translation>分组 {group}</translation>
    </message>
    <message>
        <source>pinyin {reading}</source>
        <translation>拼音 {reading}</translation>
    </message>
    <message>
        <source>traditional {fold}</source>
        <translation>繁体 {fold}</translation>
    </message>
    <message>
        <source>part of a word</source>
        <translation>词的一部分</translation>
    </message>
    <message>
        <source>by meaning</source>
        <translation>按意思</translation>
    </message>
    <message>
        <source>summary</source>
        <translation>摘要</translation>
    </message>
</context>
<context>
    <name>ImportPreviewDialog</name>
    <message>
        <source>Import preview — {file}</source>
        <translation>导入预览 — {file}</translation>
    </message>
    <message>
        <source>Nothing has been written yet. This is what importing “{file}” would do:</source>
        <translation>还没有写入任何内容。导入“{file}”将会：</translation>
    </message>
    <message>
        <source>All records</source>
        <translation>全部记录</translation>
    </message>
    <message>
        <source>Conflicts: keep the memories here (skip those records)</source>
        <translation>冲突时：保留本地的记忆（跳过这些记录）</translation>
    </message>
    <message>
        <source>Conflicts: take the file&apos;s version</source>
        <translation>冲突时：采用文件中的版本</translation>
    </message>
    <message>
        <source>Global</source>
        <translation>全局</translation>
    </message>
    <message>
        <source>{name} (new)</source>
        <translation>{name}（新建）</translation>
    </message>
    <message>
        <source>Updating the preview…</source>
        <translation>正在更新预览…</translation>
    </message>
    <message numerus="yes">
        <source>Import %n memories</source>
        <translation>
            <numerusform>导入 %n 条记忆</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing to import</source>
        <translation>没有需要导入的内容</translation>
    </message>
</context>
<context>
    <name>ImportanceEdit</name>
    <message>
        <source>Automatic (estimated on saving)</source>
        <translation>自动（保存时估计）</translation>
    </message>
    <message>
        <source>Automatic (estimated {n})</source>
        <translation>自动（估计为 {n}）</translation>
    </message>
</context>
<context>
    <name>Importer</name>
    <message>
        <source>Reading {file}</source>
        <translation>正在读取 {file}</translation>
    </message>
    <message>
        <source>Load the example memories</source>
        <translation>载入示例记忆</translation>
    </message>
    <message>
        <source>Import {file}</source>
        <translation>导入 {file}</translation>
    </message>
    <message>
        <source>Exporting</source>
        <translation>正在导出</translation>
    </message>
</context>
<context>
    <name>JobsWidget</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source> (+{n} more)</source>
        <translation>（另有 {n} 项）</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
</context>
<context>
    <name>Labels</name>
    <message>
        <source>Fact</source>
        <translation>事实</translation>
    </message>
    <message>
        <source>Preference</source>
        <translation>偏好</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>笔记</translation>
    </message>
    <message>
        <source>Long-term</source>
        <translation>长期</translation>
    </message>
    <message>
        <source>Short-term</source>
        <translation>短期</translation>
    </message>
    <message>
        <source>Hot</source>
        <translation>热</translation>
    </message>
    <message>
        <source>Warm</source>
        <translation>温</translation>
    </message>
    <message>
        <source>Cold</source>
        <translation>冷</translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>归档</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>有效</translation>
    </message>
    <message>
        <source>In the trash</source>
        <translation>在回收站中</translation>
    </message>
    <message>
        <source>Expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>Superseded</source>
        <translation>已被取代</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>更新</translation>
    </message>
    <message>
        <source>Unchanged</source>
        <translation>无变化</translation>
    </message>
    <message>
        <source>Conflict</source>
        <translation>冲突</translation>
    </message>
    <message>
        <source>Invalid</source>
        <translation>无效</translation>
    </message>
    <message>
        <source>Edited</source>
        <translation>编辑</translation>
    </message>
    <message>
        <source>Imported</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Changed by an assistant</source>
        <translation>助手修改</translation>
    </message>
    <message>
        <source>Merged</source>
        <translation>合并</translation>
    </message>
    <message>
        <source>Replaced</source>
        <translation>被取代</translation>
    </message>
    <message>
        <source>Earlier values put back</source>
        <translation>恢复旧值</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Content</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>分组</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <source>Persona</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>过期时间</translation>
    </message>
    <message>
        <source>Dedup key</source>
        <translation>去重键</translation>
    </message>
    <message>
        <source>Superseded by</source>
        <translation>被取代于</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Entered by hand</source>
        <translation>手动输入</translation>
    </message>
    <message>
        <source>Saved by an assistant</source>
        <translation>助手保存</translation>
    </message>
    <message>
        <source>Loaded from the examples</source>
        <translation>来自示例</translation>
    </message>
    <message>
        <source>Imported from {name}</source>
        <translation>从 {name} 导入</translation>
    </message>
</context>
<context>
    <name>MainToolbar</name>
    <message>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>Persona:</source>
        <translation>角色：</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <source>Exported %n memories to {file}</source>
        <translation>
            <numerusform>已导出 %n 条记忆到 {file}</numerusform>
        </translation>
    </message>
    <message>
        <source>Global</source>
        <translation>全局</translation>
    </message>
    <message>
        <source>Save search</source>
        <translation>保存搜索</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Save search “{name}”</source>
        <translation>保存搜索“{name}”</translation>
    </message>
    <message>
        <source>Remove saved search “{name}”</source>
        <translation>删除已保存的搜索“{name}”</translation>
    </message>
    <message>
        <source>Import memories</source>
        <translation>导入记忆</translation>
    </message>
    <message>
        <source>Memory files (*.json *.jsonl *.db *.sqlite *.md *.csv *.zip);;All files (*)</source>
        <translation>记忆文件 (*.json *.jsonl *.db *.sqlite *.md *.csv *.zip);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Imported: {added} new, {updated} updated</source>
        <translation>导入完成：新增 {added} 条，更新 {updated} 条</translation>
    </message>
    <message>
        <source>Export memories</source>
        <translation>导出记忆</translation>
    </message>
    <message>
        <source>MemDesk JSON (*.json)</source>
        <translation>记忆台 JSON (*.json)</translation>
    </message>
    <message numerus="yes">
        <source>%n memories</source>
        <translation>
            <numerusform>%n 条记忆</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n in the trash</source>
        <translation>
            <numerusform>回收站 %n 条</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n found</source>
        <translation>
            <numerusform>找到 %n 条</numerusform>
        </translation>
    </message>
    <message>
        <source>Waiting for another program to finish writing… your change is saved as soon as it does</source>
        <translation>正在等待另一个程序写完……它一结束就会保存你的更改</translation>
    </message>
    <message numerus="yes">
        <source>Maintenance done: %n merge proposals to review</source>
        <translation>
            <numerusform>整理完成：有 %n 条合并建议待查看</numerusform>
        </translation>
    </message>
    <message>
        <source>MemDesk database (*.db);;All files (*)</source>
        <translation>记忆台数据库 (*.db);;所有文件 (*)</translation>
    </message>
    <message>
        <source>New database</source>
        <translation>新建数据库</translation>
    </message>
    <message>
        <source>Open database</source>
        <translation>打开数据库</translation>
    </message>
    <message>
        <source>Search syntax</source>
        <translation>搜索语法</translation>
    </message>
    <message>
        <source>About MemDesk</source>
        <translation>关于记忆台</translation>
    </message>
    <message>
        <source>MemDesk {version}
See, search, edit and tidy what your AI assistants remember.
Database: {path}</source>
        <translation>记忆台 {version}
查看、搜索、编辑和整理你的 AI 助手记住的内容。
数据库：{path}</translation>
    </message>
    <message>
        <source>MemDesk</source>
        <translation>记忆台</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在载入…</translation>
    </message>
    <message>
        <source>Undo {action}</source>
        <translation>撤销{action}</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Redo {action}</source>
        <translation>重做{action}</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>New memory</source>
        <translation>新建记忆</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>还原</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Open database…</source>
        <translation>打开数据库…</translation>
    </message>
    <message>
        <source>Open server database…</source>
        <translation>打开服务器数据库…</translation>
    </message>
    <message>
        <source>New database…</source>
        <translation>新建数据库…</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Restore from trash</source>
        <translation>从回收站恢复</translation>
    </message>
    <message>
        <source>Empty trash…</source>
        <translation>清空回收站…</translation>
    </message>
    <message>
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <source>Next result</source>
        <translation>下一条结果</translation>
    </message>
    <message>
        <source>Previous result</source>
        <translation>上一条结果</translation>
    </message>
    <message>
        <source>Show the tree</source>
        <translation>返回记忆树</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新载入</translation>
    </message>
    <message>
        <source>Manage personas…</source>
        <translation>管理角色…</translation>
    </message>
    <message>
        <source>Run maintenance now</source>
        <translation>立即运行维护</translation>
    </message>
    <message>
        <source>Statistics…</source>
        <translation>统计…</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Personas</source>
        <translation>角色(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Move to group…</source>
        <translation>移动到分组…</translation>
    </message>
    <message>
        <source>Add tag…</source>
        <translation>添加标签…</translation>
    </message>
    <message>
        <source>Remove tag</source>
        <translation>移除标签</translation>
    </message>
    <message>
        <source>Set type</source>
        <translation>设置类型</translation>
    </message>
    <message>
        <source>Set importance</source>
        <translation>设置重要性</translation>
    </message>
    <message>
        <source>Move to persona</source>
        <translation>移动到角色</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Delete for good…</source>
        <translation>彻底删除…</translation>
    </message>
    <message>
        <source>Rename group…</source>
        <translation>重命名分组…</translation>
    </message>
    <message>
        <source>Remove saved search</source>
        <translation>删除已保存的搜索</translation>
    </message>
    <message>
        <source>Assistant activity…</source>
        <translation>助手操作记录…</translation>
    </message>
    <message>
        <source>Context preview…</source>
        <translation>上下文预览…</translation>
    </message>
    <message>
        <source>Review duplicates ({n})…</source>
        <translation>待合并的相似记忆 ({n})…</translation>
    </message>
    <message>
        <source>Review duplicates…</source>
        <translation>待合并的相似记忆…</translation>
    </message>
    <message>
        <source>Maintenance done</source>
        <translation>整理完成</translation>
    </message>
</context>
<context>
    <name>MaintenanceScheduler</name>
    <message>
        <source>Maintenance</source>
        <translation>维护</translation>
    </message>
</context>
<context>
    <name>MemoryActions</name>
    <message>
        <source>Delete “{title}”</source>
        <translation>删除“{title}”</translation>
    </message>
    <message>
        <source>Restore “{title}”</source>
        <translation>恢复“{title}”</translation>
    </message>
    <message>
        <source>Delete for good</source>
        <translation>彻底删除</translation>
    </message>
    <message>
        <source>Undo can still bring them back while the window is open.</source>
        <translation>在窗口关闭之前，仍可用“撤销”把它们找回来。</translation>
    </message>
    <message>
        <source>Delete “{title}” for good</source>
        <translation>彻底删除“{title}”</translation>
    </message>
    <message>
        <source>Empty trash</source>
        <translation>清空回收站</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n memories</source>
        <translation>
            <numerusform>删除 %n 条记忆</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restore %n memories</source>
        <translation>
            <numerusform>恢复 %n 条记忆</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %n memories from the trash for good?</source>
        <translation>
            <numerusform>要从回收站中永久删除这 %n 条记忆吗？</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %n memories for good</source>
        <translation>
            <numerusform>永久删除 %n 条记忆</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete all %n memories in the trash for good?</source>
        <translation>
            <numerusform>要永久删除回收站中的全部 %n 条记忆吗？</numerusform>
        </translation>
    </message>
    <message>
        <source>(no group)</source>
        <translation>未分组</translation>
    </message>
    <message numerus="yes">
        <source>Move %n memories to “{group}”</source>
        <translation>
            <numerusform>把 %n 条记忆移到「{group}」</numerusform>
        </translation>
    </message>
    <message>
        <source>Move to group</source>
        <translation>移动到分组</translation>
    </message>
    <message>
        <source>Group (&apos;/&apos; nests groups):</source>
        <translation>分组（用“/”表示子分组）：</translation>
    </message>
    <message>
        <source>Rename group</source>
        <translation>重命名分组</translation>
    </message>
    <message>
        <source>New name for “{group}”:</source>
        <translation>“{group}”的新名称：</translation>
    </message>
    <message>
        <source>Rename group “{old}” to “{new}”</source>
        <translation>将分组“{old}”重命名为“{new}”</translation>
    </message>
    <message numerus="yes">
        <source>Tag %n memories “{tag}”</source>
        <translation>
            <numerusform>给 %n 条记忆加标签「{tag}」</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Remove tag “{tag}” from %n memories</source>
        <translation>
            <numerusform>从 %n 条记忆去掉标签「{tag}」</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Set type of %n memories to {type}</source>
        <translation>
            <numerusform>把 %n 条记忆的类型设为{type}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Set importance of %n memories to {value}</source>
        <translation>
            <numerusform>把 %n 条记忆的重要性设为 {value}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Move %n memories to {persona}</source>
        <translation>
            <numerusform>把 %n 条记忆移到{persona}</numerusform>
        </translation>
    </message>
    <message>
        <source>Add tag</source>
        <translation>添加标签</translation>
    </message>
    <message>
        <source>Tag:</source>
        <translation>标签：</translation>
    </message>
</context>
<context>
    <name>MemoryEditor</name>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Save (Ctrl+S)</source>
        <translation>保存 (Ctrl+S)</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>还原</translation>
    </message>
    <message>
        <source>Drop unsaved edits</source>
        <translation>放弃未保存的修改</translation>
    </message>
    <message>
        <source>History</source>
        <translation>修改历史</translation>
    </message>
    <message>
        <source>Why found</source>
        <translation>命中原因</translation>
    </message>
    <message>
        <source>Select a memory on the left, or press Ctrl+N to write a new one.</source>
        <translation>在左侧选择一条记忆，或按 Ctrl+N 新建一条。</translation>
    </message>
    <message>
        <source>New memory</source>
        <translation>新记忆</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>正在保存…</translation>
    </message>
    <message>
        <source>● Unsaved changes</source>
        <translation>● 有未保存的修改</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的修改</translation>
    </message>
    <message>
        <source>This memory has unsaved changes.</source>
        <translation>这条记忆有未保存的修改。</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>放弃</translation>
    </message>
    <message>
        <source>Keep editing</source>
        <translation>继续编辑</translation>
    </message>
    <message>
        <source>Add “{title}”</source>
        <translation>新建“{title}”</translation>
    </message>
    <message>
        <source>Edit “{title}”</source>
        <translation>编辑“{title}”</translation>
    </message>
    <message>
        <source>Not saved — {problem}</source>
        <translation>未保存 — {problem}</translation>
    </message>
    <message>
        <source>Not saved — {problem}. Your text is still here: save again to retry.</source>
        <translation>未保存 — {problem}。你的内容仍在这里：再次保存即可重试。</translation>
    </message>
    <message>
        <source>Put back earlier values</source>
        <translation>恢复修改前的内容</translation>
    </message>
    <message>
        <source>This memory was removed. Save to add your text as a new memory.</source>
        <translation>这条记忆已被删除。保存后，你的内容将作为一条新记忆添加。</translation>
    </message>
    <message>
        <source>This memory was changed elsewhere. Saving will show both versions.</source>
        <translation>这条记忆已在别处被修改。保存时会同时显示两个版本供你选择。</translation>
    </message>
    <message>
        <source>This memory was changed elsewhere while you were editing it.</source>
        <translation>你编辑期间，这条记忆在别处被修改了。</translation>
    </message>
</context>
<context>
    <name>MemoryForm</name>
    <message>
        <source>Expires</source>
        <translation>过期时间</translation>
    </message>
    <message>
        <source>Title (optional; the start of the content is shown otherwise)</source>
        <translation>标题（可不填，不填时显示内容的开头）</translation>
    </message>
    <message>
        <source>What the assistant should remember</source>
        <translation>助手应当记住的内容</translation>
    </message>
    <message>
        <source>Comma-separated, e.g. habit, health</source>
        <translation>用逗号分隔，例如：习惯，健康</translation>
    </message>
    <message>
        <source>e.g. work/project A  (&apos;/&apos; nests groups)</source>
        <translation>例如：工作/项目A（用“/”表示子分组）</translation>
    </message>
    <message>
        <source>Optional; one memory per key and persona</source>
        <translation>可选；同一角色下每个键只对应一条记忆</translation>
    </message>
    <message>
        <source>Expires on</source>
        <translation>过期于</translation>
    </message>
    <message>
        <source>Global (every persona)</source>
        <translation>全局（所有角色可见）</translation>
    </message>
</context>
<context>
    <name>MemoryTableModel</name>
    <message>
        <source>Cannot be sorted: why a memory was found is worked out for the rows on screen only</source>
        <translation>此列不能排序：命中方式只为屏幕上显示的行计算</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Content</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>分组</translation>
    </message>
    <message>
        <source>Persona</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <source>Heat</source>
        <translation>热度</translation>
    </message>
    <message>
        <source>Found by</source>
        <translation>命中原因</translation>
    </message>
    <message>
        <source>(untitled)</source>
        <translation>（无标题）</translation>
    </message>
    <message>
        <source>(no group)</source>
        <translation>未分组</translation>
    </message>
    <message>
        <source>Global</source>
        <translation>全局</translation>
    </message>
</context>
<context>
    <name>ModelController</name>
    <message>
        <source>Downloading the model {name}</source>
        <translation>正在下载模型 {name}</translation>
    </message>
    <message>
        <source>Downloading {name} from {hub}…</source>
        <translation>正在从 {hub} 下载 {name}…</translation>
    </message>
    <message>
        <source>Installed {model}.</source>
        <translation>已安装 {model}。</translation>
    </message>
    <message>
        <source>Installing a model</source>
        <translation>正在安装模型</translation>
    </message>
    <message>
        <source>Switching the model</source>
        <translation>正在切换模型</translation>
    </message>
    <message>
        <source>{name} is now the active model.</source>
        <translation>{name} 现在是当前模型。</translation>
    </message>
    <message>
        <source>Removing a model</source>
        <translation>正在删除模型</translation>
    </message>
    <message>
        <source>Removed {name}.</source>
        <translation>已删除 {name}。</translation>
    </message>
    <message>
        <source>Embedding model</source>
        <translation>嵌入模型</translation>
    </message>
    <message>
        <source>Loading the model</source>
        <translation>正在加载模型</translation>
    </message>
    <message>
        <source>Search is keyword-only until the memories are embedded with the new model…</source>
        <translation>用新模型完成记忆向量化之前，搜索仅按关键词…</translation>
    </message>
</context>
<context>
    <name>ModelManager</name>
    <message>
        <source>Paused. Download again to resume where it stopped.</source>
        <translation>已暂停。再次下载即可从中断处继续。</translation>
    </message>
    <message>
        <source>Cannot reach the model hub. Check the network, or choose a mirror (for example {mirror}). What was downloaded is kept: try again to resume.</source>
        <translation>无法连接模型仓库。请检查网络，或选择镜像（例如 {mirror}）。已下载的部分会保留：重试即可续传。</translation>
    </message>
    <message>
        <source>The model hub refused the request: check the address of the hub or mirror.</source>
        <translation>模型仓库拒绝了请求：请检查仓库或镜像的地址。</translation>
    </message>
    <message>
        <source>The downloaded file does not match its checksum; it was deleted and nothing was installed. Try again, or use another mirror.</source>
        <translation>下载的文件与校验和不符，已删除，未安装任何内容。请重试，或换一个镜像。</translation>
    </message>
    <message>
        <source>Not enough free disk space for the model. Free some space and try again; what was downloaded is kept.</source>
        <translation>磁盘空间不足，无法存放模型。请腾出空间后重试；已下载的部分会保留。</translation>
    </message>
    <message>
        <source>This is not a model: a model is a folder or .zip holding model.onnx and tokenizer.json.</source>
        <translation>这不是模型：模型是包含 model.onnx 和 tokenizer.json 的文件夹或 .zip。</translation>
    </message>
    <message>
        <source>A model of that name is already installed; remove it first.</source>
        <translation>已安装同名模型，请先删除它。</translation>
    </message>
    <message>
        <source>The model does not work (it fails on a test sentence).</source>
        <translation>该模型无法使用（测试句子运行失败）。</translation>
    </message>
    <message>
        <source>The model could not be set up.</source>
        <translation>无法设置该模型。</translation>
    </message>
    <message>
        <source>{name}: damaged</source>
        <translation>{name}：已损坏</translation>
    </message>
    <message>
        <source>{name} ({size} MB)</source>
        <translation>{name}（{size} MB）</translation>
    </message>
    <message>
        <source>The active model was not changed.</source>
        <translation>当前模型未改变。</translation>
    </message>
    <message>
        <source>Details: {details}</source>
        <translation>详细信息（英文）：{details}</translation>
    </message>
    <message>
        <source>{name}: damaged ({problem})</source>
        <translation>{name}：已损坏（{problem}）</translation>
    </message>
    <message>
        <source>{name} · {dim} dimensions · {pooling} pooling · {size} MB · {precision}</source>
        <translation>{name} · {dim} 维 · {pooling} 池化 · {size} MB · {precision}</translation>
    </message>
    <message>
        <source>Semantic search finds memories by what they mean, not only by their words: searching “something to drink” also finds “no coffee after 3 pm”. It runs on this computer; nothing is sent anywhere.</source>
        <translation>语义搜索按意思找记忆，而不只是按字词：搜“喝什么饮料”也能找到“不喝咖啡因”。它在这台电脑上运行，不会把任何内容发出去。</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>使用</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Install from a folder…</source>
        <translation>从文件夹安装…</translation>
    </message>
    <message>
        <source>Install from a .zip…</source>
        <translation>从 .zip 安装…</translation>
    </message>
    <message>
        <source>Download {name} (about 95 MB)</source>
        <translation>下载 {name}（约 95 MB）</translation>
    </message>
    <message>
        <source>If the download does not start (often so in mainland China), choose a mirror under Advanced.</source>
        <translation>如果下载开始不了（在中国大陆常会这样），请在“高级”里选择一个镜像。</translation>
    </message>
    <message>
        <source>Advanced</source>
        <translation>高级</translation>
    </message>
    <message>
        <source>Hugging Face (huggingface.co)</source>
        <translation>Hugging Face（huggingface.co）</translation>
    </message>
    <message>
        <source>From {variable}: {url}</source>
        <translation>来自 {variable}：{url}</translation>
    </message>
    <message>
        <source>A mirror:</source>
        <translation>镜像：</translation>
    </message>
    <message>
        <source>From</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>On, with {model}</source>
        <translation>已开启，使用 {model}</translation>
    </message>
    <message>
        <source>Off: search finds words only. Download {name} below, or install a model you have.</source>
        <translation>未开启：目前只按字词搜索。可在下方下载 {name}，或安装已有的模型。</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Semantic search</source>
        <translation>语义搜索</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>In mainland China huggingface.co is often unreachable: pick a mirror such as {mirror}, or set HF_ENDPOINT before starting MemDesk. A stopped download resumes where it stopped.</source>
        <translation>在中国大陆常常无法访问 huggingface.co：请选择镜像（如 {mirror}），或在启动记忆台前设置 HF_ENDPOINT。中断的下载会从中断处继续。</translation>
    </message>
    <message>
        <source>No model installed yet. Download one below, or install one you have from a folder or a .zip.</source>
        <translation>还没有安装模型。可在下方下载，或从文件夹或 .zip 安装已有的模型。</translation>
    </message>
    <message>
        <source>Remove model</source>
        <translation>删除模型</translation>
    </message>
    <message>
        <source>Delete the model {name} from this computer?</source>
        <translation>从本机删除模型 {name}？</translation>
    </message>
    <message>
        <source>Install a model from a folder</source>
        <translation>从文件夹安装模型</translation>
    </message>
    <message>
        <source>Install a model from a .zip</source>
        <translation>从 .zip 安装模型</translation>
    </message>
    <message>
        <source>Zip archives (*.zip)</source>
        <translation>Zip 压缩包 (*.zip)</translation>
    </message>
</context>
<context>
    <name>PasswordDialog</name>
    <message>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>The server asks for a password for {where}.</source>
        <translation>服务器要求输入 {where} 的密码。</translation>
    </message>
    <message>
        <source>Remember it in the system keyring</source>
        <translation>记住密码（保存在系统钥匙串中）</translation>
    </message>
    <message>
        <source>No system keyring here ({reason}): the password is kept only while MemDesk runs.</source>
        <translation>此处没有可用的系统钥匙串（{reason}）：密码只在 MemDesk 运行期间保留在内存中。</translation>
    </message>
    <message>
        <source>not available</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>Password:</source>
        <translation>密码：</translation>
    </message>
</context>
<context>
    <name>PersonaMapping</name>
    <message>
        <source>Personas in this file</source>
        <translation>文件中的角色</translation>
    </message>
    <message>
        <source>The database does not know these personas. Choose where each one&apos;s memories go; the choice is remembered for the next import.</source>
        <translation>数据库里没有这些角色。请为每个角色选择其记忆的去处；下次导入时会记住这个选择。</translation>
    </message>
    <message numerus="yes">
        <source>Persona {n} of the file ({id}…), %n records</source>
        <translation>
            <numerusform>文件里的角色 {n}（{id}…），%n 条记录</numerusform>
        </translation>
    </message>
    <message>
        <source>Its id in the file: {id}</source>
        <translation>它在文件中的编号：{id}</translation>
    </message>
    <message>
        <source>New persona named</source>
        <translation>新建角色，名称</translation>
    </message>
    <message>
        <source>Global (every persona sees them)</source>
        <translation>全局（所有角色可见）</translation>
    </message>
    <message>
        <source>Existing persona “{name}”</source>
        <translation>已有角色“{name}”</translation>
    </message>
    <message>
        <source>Name of the new persona</source>
        <translation>新角色的名称</translation>
    </message>
    <message>
        <source>Type a name for the new persona from persona {n} of the file.</source>
        <translation>请为文件里的角色 {n} 的新角色输入名称。</translation>
    </message>
    <message>
        <source>A persona named “{name}” exists already: choose it in the list instead.</source>
        <translation>已有名为“{name}”的角色：请改为在列表中选择它。</translation>
    </message>
    <message>
        <source>Two new personas cannot both be named “{name}”.</source>
        <translation>两个新角色不能同名“{name}”。</translation>
    </message>
    <message>
        <source>“{name}” looks like an id: give the persona a name people can read.</source>
        <translation>“{name}”看起来像一个 id：请给角色起一个便于阅读的名字。</translation>
    </message>
</context>
<context>
    <name>PersonaSelector</name>
    <message>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Global</source>
        <translation>全局</translation>
    </message>
</context>
<context>
    <name>PersonasDialog</name>
    <message>
        <source>Personas</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>Its assistants get memory: brief and tools</source>
        <translation>此角色的助手可用记忆（摘要和工具）</translation>
    </message>
    <message>
        <source>Assistants without a persona get memory</source>
        <translation>不带角色的助手可用记忆</translation>
    </message>
    <message>
        <source>Off: assistants acting without a persona get no memory brief and no memory tools.</source>
        <translation>关闭后，不带角色的助手收不到记忆摘要，也不能使用记忆工具。</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>Colour</source>
        <translation>颜色</translation>
    </message>
    <message>
        <source>{name} ({n})</source>
        <translation>{name}（{n}）</translation>
    </message>
    <message>
        <source>New persona</source>
        <translation>新建角色</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Add persona “{name}”</source>
        <translation>添加角色“{name}”</translation>
    </message>
    <message>
        <source>Rename persona “{old}” to “{new}”</source>
        <translation>将角色“{old}”重命名为“{new}”</translation>
    </message>
    <message>
        <source>Edit persona “{name}”</source>
        <translation>编辑角色“{name}”</translation>
    </message>
    <message>
        <source>Colour persona “{name}”</source>
        <translation>设置角色“{name}”的颜色</translation>
    </message>
    <message>
        <source>Delete persona</source>
        <translation>删除角色</translation>
    </message>
    <message numerus="yes">
        <source>Delete the persona “{name}”? It has %n memories. What should happen to them?</source>
        <translation>
            <numerusform>要删除角色「{name}」吗？它有 %n 条记忆，这些记忆怎么处理？</numerusform>
        </translation>
    </message>
    <message>
        <source>Keep them as global memories</source>
        <translation>保留为全局记忆</translation>
    </message>
    <message>
        <source>Move them to the trash</source>
        <translation>移到回收站</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Delete persona “{name}”</source>
        <translation>删除角色“{name}”</translation>
    </message>
    <message>
        <source>Off: assistants acting as this persona get no memory brief and no memory tools. Saved as soon as you click it.</source>
        <translation>关闭后：以此角色工作的助手既收不到记忆摘要，也不能使用记忆工具。点击后立即保存。</translation>
    </message>
    <message>
        <source>Turn memory on for “{name}”</source>
        <translation>为“{name}”开启记忆</translation>
    </message>
    <message>
        <source>Turn memory off for “{name}”</source>
        <translation>为“{name}”关闭记忆</translation>
    </message>
    <message>
        <source>Turn global memory on</source>
        <translation>开启全局记忆</translation>
    </message>
    <message>
        <source>Turn global memory off</source>
        <translation>关闭全局记忆</translation>
    </message>
</context>
<context>
    <name>PlanModel</name>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>What happens</source>
        <translation>处理方式</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Persona</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Record {n} of the file (no title)</source>
        <translation>文件里的第 {n} 条记录（没有标题）</translation>
    </message>
    <message>
        <source>Id in the file: {id}</source>
        <translation>文件中的编号：{id}</translation>
    </message>
</context>
<context>
    <name>ProposalModel</name>
    <message>
        <source>Memories</source>
        <translation>记忆数</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Changed since</source>
        <translation>之后有改动</translation>
    </message>
    <message>
        <source>Suggested text</source>
        <translation>建议文本</translation>
    </message>
    <message>
        <source>same text</source>
        <translation>文本相同</translation>
    </message>
    <message>
        <source>similar</source>
        <translation>相似</translation>
    </message>
    <message>
        <source>edited since</source>
        <translation>已被修改</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>A memory was edited after this was proposed; look again before merging.</source>
        <translation>提出建议后有记忆被修改过，合并前请再看一遍。</translation>
    </message>
</context>
<context>
    <name>QueryErrors</name>
    <message>
        <source>this quotation mark is never closed</source>
        <translation>这个引号没有闭合</translation>
    </message>
    <message>
        <source>a minus sign must be followed by what to leave out</source>
        <translation>减号后面要紧跟要排除的内容</translation>
    </message>
    <message>
        <source>“)” has no “(” before it</source>
        <translation>“)”前面没有对应的“(”</translation>
    </message>
    <message>
        <source>OR needs something on both sides</source>
        <translation>OR 两边都要有内容</translation>
    </message>
    <message>
        <source>AND needs something on both sides</source>
        <translation>AND 两边都要有内容</translation>
    </message>
    <message>
        <source>something to search for is missing here</source>
        <translation>这里缺少要搜索的内容</translation>
    </message>
    <message>
        <source>the brackets are empty</source>
        <translation>括号里是空的</translation>
    </message>
    <message>
        <source>this “(” is never closed</source>
        <translation>这个“(”没有闭合</translation>
    </message>
    <message>
        <source>the quotation marks are empty</source>
        <translation>引号里是空的</translation>
    </message>
    <message>
        <source>{typed}{op} needs a value after it</source>
        <translation>{typed}{op} 后面要写一个值</translation>
    </message>
    <message>
        <source>{typed} has no value “{value}”; use one of {allowed}</source>
        <translation>{typed} 没有“{value}”这一项；可用：{allowed}</translation>
    </message>
    <message>
        <source>importance is a whole number from 1 to 10, not “{value}”</source>
        <translation>重要性是 1 到 10 的整数，不能是“{value}”</translation>
    </message>
    <message>
        <source>there is no filter “{typed}”; did you mean {suggestion}:?</source>
        <translation>没有“{typed}”这个筛选条件；是不是想写 {suggestion}:？</translation>
    </message>
    <message>
        <source>“{value}” is not a date; write 2024, 2024-05, 2024-05-31 or 7d</source>
        <translation>“{value}”不是日期；请写 2024、2024-05、2024-05-31 或 7d</translation>
    </message>
    <message>
        <source>“{value}” is not a real date</source>
        <translation>“{value}”不是真实存在的日期</translation>
    </message>
    <message>
        <source>“{value}” reaches back before year 1</source>
        <translation>“{value}”早于公元 1 年</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>At character {n}: {problem}</source>
        <translation>第 {n} 个字：{problem}</translation>
    </message>
</context>
<context>
    <name>Reasons</name>
    <message>
        <source>the argument {name} is missing</source>
        <translation>缺少参数「{name}」</translation>
    </message>
    <message>
        <source>arguments it does not take: {names} (it takes {accepted})</source>
        <translation>给了不支持的参数：{names}（支持的参数：{accepted}）</translation>
    </message>
    <message>
        <source>{name} must be text</source>
        <translation>「{name}」必须是文本</translation>
    </message>
    <message>
        <source>{name} must be one of {choices}, not {value}</source>
        <translation>「{name}」只能是 {choices} 之一，而不是 {value}</translation>
    </message>
    <message>
        <source>{name} must be a whole number</source>
        <translation>「{name}」必须是整数</translation>
    </message>
    <message>
        <source>{name} must be from {low} to {high}, not {value}</source>
        <translation>「{name}」必须在 {low} 到 {high} 之间，而不是 {value}</translation>
    </message>
    <message>
        <source>{name} must be a number</source>
        <translation>「{name}」必须是数字</translation>
    </message>
    <message>
        <source>{name} must be true or false</source>
        <translation>「{name}」必须是 true 或 false</translation>
    </message>
    <message>
        <source>the arguments could not be read</source>
        <translation>无法读取参数</translation>
    </message>
    <message>
        <source>there is no tool named {tool}</source>
        <translation>没有名为 {tool} 的工具</translation>
    </message>
    <message>
        <source>memory is switched off for this persona; nothing was done</source>
        <translation>此角色已关闭记忆，未做任何操作</translation>
    </message>
    <message>
        <source>{n} memories contain “{query}”: too many to delete at once; nothing was deleted</source>
        <translation>有 {n} 条记忆包含「{query}」，太多了，不能一次删除；未删除任何记忆</translation>
    </message>
    <message>
        <source>memory {id} belongs to another persona</source>
        <translation>记忆 {id} 属于另一个角色</translation>
    </message>
    <message>
        <source>it named no memory and no filter; nothing was forgotten</source>
        <translation>既没指定记忆也没给筛选条件，未删除任何记忆</translation>
    </message>
    <message>
        <source>there is no memory {id}</source>
        <translation>没有编号为 {id} 的记忆</translation>
    </message>
    <message>
        <source>there is no persona named {name}</source>
        <translation>没有名为 {name} 的角色</translation>
    </message>
    <message>
        <source>{field} is empty</source>
        <translation>「{field}」为空</translation>
    </message>
    <message>
        <source>{field} is {n} characters long; at most {limit} are kept</source>
        <translation>「{field}」有 {n} 个字符，最多只能 {limit} 个</translation>
    </message>
    <message>
        <source>its id appears more than once in the file</source>
        <translation>编号在文件中出现了不止一次</translation>
    </message>
    <message>
        <source>the dedup key {key} appears more than once in the file</source>
        <translation>去重键 {key} 在文件中出现了不止一次</translation>
    </message>
    <message>
        <source>the dedup key {key} is already used by memory {id}</source>
        <translation>去重键 {key} 已被记忆 {id} 使用</translation>
    </message>
    <message>
        <source>the same text as memory {id}, already here</source>
        <translation>与已有的记忆 {id} 内容相同</translation>
    </message>
    <message>
        <source>the same text as record {n} of the file</source>
        <translation>与文件中第 {n} 条记录内容相同</translation>
    </message>
    <message>
        <source>differs in: {names}</source>
        <translation>不同之处：{names}</translation>
    </message>
    <message>
        <source>changed here after the file&apos;s copy was written (differs in: {names})</source>
        <translation>文件里的版本写出后，这里又改过（不同之处：{names}）</translation>
    </message>
    <message>
        <source>{field}: {detail}</source>
        <translation>{field}：{detail}</translation>
    </message>
    <message>
        <source>{field} must be text, not {type}</source>
        <translation>{field}必须是文字，不能是 {type}</translation>
    </message>
    <message>
        <source>{field} must be text</source>
        <translation>{field}必须是文字</translation>
    </message>
    <message>
        <source>{field} contains a NUL character</source>
        <translation>{field}含有空字符（NUL）</translation>
    </message>
    <message>
        <source>{field} is missing</source>
        <translation>缺少{field}</translation>
    </message>
    <message>
        <source>the tags must be a list of texts, not {type}</source>
        <translation>标签必须是文字列表，不能是 {type}</translation>
    </message>
    <message>
        <source>every tag must be text; {value} is not</source>
        <translation>每个标签都必须是文字，{value} 不是</translation>
    </message>
    <message>
        <source>{n} tags; at most {limit} are allowed</source>
        <translation>共 {n} 个标签，最多只能有 {limit} 个</translation>
    </message>
    <message>
        <source>{field} must be one of {choices}, not {value}</source>
        <translation>{field}必须是 {choices} 之一，不能是 {value}</translation>
    </message>
    <message>
        <source>the importance must be a whole number from 1 to 10, not {value}</source>
        <translation>重要性必须是 1 到 10 的整数，不能是 {value}</translation>
    </message>
    <message>
        <source>the source must be manual, ai or import:NAME, not {value}</source>
        <translation>来源必须是 manual、ai 或 import:名称，不能是 {value}</translation>
    </message>
    <message>
        <source>{field} is not a time MemDesk can read ({detail})</source>
        <translation>{field}不是可识别的时间（{detail}）</translation>
    </message>
    <message>
        <source>{value} is not a colour like #3a7bd5</source>
        <translation>{value} 不是 #3a7bd5 这样的颜色</translation>
    </message>
    <message>
        <source>the persona must be a persona id, not {type}</source>
        <translation>角色必须是角色 id，不能是 {type}</translation>
    </message>
    <message>
        <source>there is no persona with id {id}</source>
        <translation>没有 id 为 {id} 的角色</translation>
    </message>
    <message>
        <source>{field} cannot be set here</source>
        <translation>此处不能设置{field}</translation>
    </message>
    <message>
        <source>{field} must be a whole number of 0 or more</source>
        <translation>{field}必须是不小于 0 的整数</translation>
    </message>
    <message>
        <source>the heat must be a number from 0 to 100</source>
        <translation>热度必须是 0 到 100 之间的数</translation>
    </message>
    <message>
        <source>the expiry must be a number of days from 0 to 36500</source>
        <translation>有效期必须是 0 到 36500 之间的天数</translation>
    </message>
    <message>
        <source>a memory with this id already exists</source>
        <translation>已有相同 id 的记忆</translation>
    </message>
    <message>
        <source>another memory of this persona already has the key {key}</source>
        <translation>此角色已有另一条记忆使用去重键 {key}</translation>
    </message>
    <message>
        <source>the store refused the change ({detail})</source>
        <translation>数据库拒绝了这次修改（{detail}）</translation>
    </message>
    <message>
        <source>memory {id} is not in the trash; delete it first</source>
        <translation>记忆 {id} 不在回收站中，请先删除它</translation>
    </message>
    <message>
        <source>memory {id} is already superseded by {by}</source>
        <translation>记忆 {id} 已被 {by} 取代</translation>
    </message>
    <message>
        <source>a memory cannot supersede itself</source>
        <translation>记忆不能取代它自己</translation>
    </message>
    <message>
        <source>a persona named {name} already exists</source>
        <translation>已有名为 {name} 的角色</translation>
    </message>
    <message>
        <source>a persona with id {id} already exists</source>
        <translation>已有 id 为 {id} 的角色</translation>
    </message>
    <message>
        <source>{field} is not a field of a persona</source>
        <translation>{field}不是角色的字段</translation>
    </message>
    <message>
        <source>the persona could not be created ({detail})</source>
        <translation>无法创建角色（{detail}）</translation>
    </message>
    <message>
        <source>{n} of this persona&apos;s memories use a dedup key that a global memory already uses ({keys}); change or remove one memory of each pair, then delete the persona</source>
        <translation>该角色有 {n} 条记忆的去重键已被全局记忆使用（{keys}）；请修改或删除每对中的一条，然后再删除该角色</translation>
    </message>
    <message>
        <source>unknown choice {choice}</source>
        <translation>未知的选项 {choice}</translation>
    </message>
    <message>
        <source>say what happens to the persona&apos;s memories: {choices}</source>
        <translation>请说明该角色的记忆如何处理：{choices}</translation>
    </message>
    <message>
        <source>type a name for the new persona</source>
        <translation>请为新角色输入名称</translation>
    </message>
    <message>
        <source>{name} looks like an id; give the persona a name people can read</source>
        <translation>{name} 看起来像 id；请给角色起一个易读的名称</translation>
    </message>
    <message>
        <source>a persona named {name} already exists; map to it instead</source>
        <translation>已有名为 {name} 的角色；请改为映射到它</translation>
    </message>
    <message>
        <source>memory {id} no longer exists</source>
        <translation>记忆 {id} 已不存在</translation>
    </message>
    <message>
        <source>memory {id} is in the trash; refresh the proposal</source>
        <translation>记忆 {id} 已在回收站中；请刷新合并建议</translation>
    </message>
    <message>
        <source>memory {id} is already superseded by {by}; refresh the proposal</source>
        <translation>记忆 {id} 已被 {by} 取代；请刷新合并建议</translation>
    </message>
    <message>
        <source>memory {id} was edited after the merge was proposed; look at it again before merging</source>
        <translation>记忆 {id} 在提出合并建议后被修改过；请重新查看后再合并</translation>
    </message>
    <message>
        <source>memories of different personas cannot be merged</source>
        <translation>不同角色的记忆不能合并</translation>
    </message>
    <message>
        <source>choose at least two memories to merge</source>
        <translation>请至少选择两条记忆来合并</translation>
    </message>
    <message>
        <source>memory {id} has no revision {revision}</source>
        <translation>记忆 {id} 没有版本 {revision}</translation>
    </message>
    <message>
        <source>no memory id given</source>
        <translation>没有给出记忆 id</translation>
    </message>
    <message>
        <source>{typed} is too short for an id prefix: give at least {min} characters or the full id</source>
        <translation>{typed} 太短，不能作为 id 前缀：请至少输入 {min} 个字符或完整 id</translation>
    </message>
    <message>
        <source>no memory id starts with {typed}</source>
        <translation>没有以 {typed} 开头的记忆 id</translation>
    </message>
    <message>
        <source>{typed} names memory {id}, which is in the trash</source>
        <translation>{typed} 指的是记忆 {id}，它在回收站中</translation>
    </message>
    <message>
        <source>{typed} names memory {id}, which is not in the trash</source>
        <translation>{typed} 指的是记忆 {id}，它不在回收站中</translation>
    </message>
    <message>
        <source>{n} memories have an id starting with {typed}, but none outside the trash</source>
        <translation>有 {n} 条记忆的 id 以 {typed} 开头，但都在回收站中</translation>
    </message>
    <message>
        <source>{n} memories have an id starting with {typed}, but none in the trash</source>
        <translation>有 {n} 条记忆的 id 以 {typed} 开头，但都不在回收站中</translation>
    </message>
    <message>
        <source>there is no open merge proposal {id} (answered already, or replaced by a newer run)</source>
        <translation>没有待处理的合并建议 {id}（已处理过，或已被较新的整理取代）</translation>
    </message>
    <message>
        <source>memory {id} was changed elsewhere (you edited version {expected}, the store has version {found}); nothing was overwritten</source>
        <translation>记忆 {id} 已在别处被修改（你编辑的是第 {expected} 版，数据库中是第 {found} 版）；没有覆盖任何内容</translation>
    </message>
    <message>
        <source>the id prefix {prefix} fits {total} merge proposals; type more of it</source>
        <translation>id 前缀 {prefix} 对应 {total} 条合并建议；请多输入几位</translation>
    </message>
    <message>
        <source>the id prefix {prefix} fits {total} personas; type more of it</source>
        <translation>id 前缀 {prefix} 对应 {total} 个角色；请多输入几位</translation>
    </message>
    <message>
        <source>the id prefix {prefix} fits {total} memories; type more of it</source>
        <translation>id 前缀 {prefix} 对应 {total} 条记忆；请多输入几位</translation>
    </message>
    <message>
        <source>there is no tool call {call}</source>
        <translation>没有编号为 {call} 的工具调用</translation>
    </message>
    <message>
        <source>tool call {call} was already reverted</source>
        <translation>工具调用 {call} 已经撤销过了</translation>
    </message>
    <message>
        <source>tool call {call} ({tool}) changed nothing; there is nothing to revert</source>
        <translation>工具调用 {call}（{tool}）没有改动任何内容，无可撤销</translation>
    </message>
    <message>
        <source>memory {id} was changed after tool call {call}; revert that change first or edit the memory by hand (nothing was reverted)</source>
        <translation>记忆 {id} 在工具调用 {call} 之后又被修改过；请先撤销那次修改，或手动编辑该记忆（未撤销任何内容）</translation>
    </message>
    <message>
        <source>{path} cannot be read: {detail}</source>
        <translation>无法读取 {path}：{detail}</translation>
    </message>
    <message>
        <source>{path} is a folder, not a file</source>
        <translation>{path} 是文件夹，不是文件</translation>
    </message>
    <message>
        <source>{name} is {mb} MB; files over {limit} MB are refused</source>
        <translation>{name} 有 {mb} MB；超过 {limit} MB 的文件不能导入</translation>
    </message>
    <message>
        <source>{name} says it is UTF-16 text but is not</source>
        <translation>{name} 自称是 UTF-16 文本，但实际不是</translation>
    </message>
    <message>
        <source>{name} is not UTF-8 text (a bad byte at offset {offset})</source>
        <translation>{name} 不是 UTF-8 文本（偏移 {offset} 处有无效字节）</translation>
    </message>
    <message>
        <source>{name}: the JSON is nested too deeply</source>
        <translation>{name}：JSON 嵌套太深</translation>
    </message>
    <message>
        <source>{name} is not valid JSON (line {line}, column {column}: {detail})</source>
        <translation>{name} 不是有效的 JSON（第 {line} 行第 {column} 列：{detail}）</translation>
    </message>
    <message>
        <source>there is no format {format}; use one of {formats}</source>
        <translation>没有 {format} 这种格式；请使用 {formats} 之一</translation>
    </message>
    <message>
        <source>{name}: a {format} file must be JSON, and this is not</source>
        <translation>{name}：{format} 文件必须是 JSON，而它不是</translation>
    </message>
    <message>
        <source>{name} is a zip archive, not a {format} file</source>
        <translation>{name} 是 zip 压缩包，不是 {format} 文件</translation>
    </message>
    <message>
        <source>{name} is not a zip archive</source>
        <translation>{name} 不是 zip 压缩包</translation>
    </message>
    <message>
        <source>{name} is a binary file, not text; MemDesk reads {expected}</source>
        <translation>{name} 是二进制文件，不是文本；记忆台可读取：{expected}</translation>
    </message>
    <message>
        <source>{name} has no list items or paragraphs to import</source>
        <translation>{name} 中没有可导入的列表项或段落</translation>
    </message>
    <message>
        <source>{n} records of the file are invalid; nothing was imported (every record must be valid)</source>
        <translation>文件中有 {n} 条无效记录；未导入任何内容（要求每条记录都有效）</translation>
    </message>
    <message>
        <source>MemDesk does not know the format of {name}; it reads {expected}</source>
        <translation>记忆台无法识别 {name} 的格式；可读取：{expected}</translation>
    </message>
    <message>
        <source>MemDesk does not know this file&apos;s format; it reads {expected}</source>
        <translation>记忆台无法识别这个文件的格式；可读取：{expected}</translation>
    </message>
    <message>
        <source>{name} is not a {format} file (it looks like {detected})</source>
        <translation>{name} 不是 {format} 文件（看起来像 {detected}）</translation>
    </message>
    <message>
        <source>{name} is not a {format} file</source>
        <translation>{name} 不是 {format} 文件</translation>
    </message>
    <message>
        <source>the record is {type}, not an object</source>
        <translation>该记录是 {type}，不是对象</translation>
    </message>
    <message>
        <source>search words</source>
        <translation>搜索词</translation>
    </message>
    <message>
        <source>memory id</source>
        <translation>记忆编号</translation>
    </message>
    <message>
        <source>memory ids</source>
        <translation>记忆编号</translation>
    </message>
    <message>
        <source>number of results</source>
        <translation>结果条数</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>in the file it belongs to “{name}”</source>
        <translation>文件中它属于「{name}」</translation>
    </message>
    <message>
        <source>in the file it is global</source>
        <translation>文件中它是全局记忆</translation>
    </message>
    <message>
        <source>here it belongs to “{name}”</source>
        <translation>这里它属于「{name}」</translation>
    </message>
    <message>
        <source>here it is global</source>
        <translation>这里它是全局记忆</translation>
    </message>
    <message>
        <source>{there}; {here}</source>
        <translation>{there}；{here}</translation>
    </message>
    <message>
        <source> (also differs in: {names})</source>
        <translation>（另有不同：{names}）</translation>
    </message>
    <message>
        <source>{reason}; {note}</source>
        <translation>{reason}；{note}</translation>
    </message>
    <message>
        <source>there is no database at {path}</source>
        <translation>{path} 处没有数据库</translation>
    </message>
    <message>
        <source>{path} is not a MemDesk database (not an SQLite file, or damaged); it was not changed. Open another file or restore a backup</source>
        <translation>{path} 不是 MemDesk 数据库（不是 SQLite 文件，或已损坏）；它没有被改动。请打开别的文件，或恢复一个备份</translation>
    </message>
    <message>
        <source>{path} cannot be read ({detail}); it was not changed</source>
        <translation>无法读取 {path}（{detail}）；它没有被改动</translation>
    </message>
    <message>
        <source>{path} cannot be opened ({detail}); it was not changed</source>
        <translation>无法打开 {path}（{detail}）；它没有被改动</translation>
    </message>
    <message>
        <source>the folder for {path} cannot be created: {detail}</source>
        <translation>无法为 {path} 创建文件夹：{detail}</translation>
    </message>
    <message>
        <source>{where} holds tables named like MemDesk&apos;s but is not a MemDesk database; it was not changed. Choose an empty database</source>
        <translation>{where} 中有与 MemDesk 同名的表，但它不是 MemDesk 的数据库；它没有被改动。请选择一个空数据库</translation>
    </message>
    <message>
        <source>this MemDesk cannot bring {where} to schema version {version}</source>
        <translation>此版本的 MemDesk 无法把 {where} 升级到结构版本 {version}</translation>
    </message>
    <message>
        <source>the database {where} no longer exists on the server (dropped or renamed): nothing more can be saved to it. Open another database, or create it again and copy or import a backup into it</source>
        <translation>服务器上已没有数据库 {where}（已被删除或改名）：无法再保存到其中。请打开另一个数据库，或重新创建它，再把备份复制或导入进去</translation>
    </message>
    <message>
        <source>the connection to {where} was lost during a save; it was saved whole or not at all: reload to see which</source>
        <translation>保存时与 {where} 的连接断开了；这次保存要么完整写入，要么完全没有写入：请重新加载查看</translation>
    </message>
    <message>
        <source>the connection to {where} was lost during a save, before it was committed: it was not saved</source>
        <translation>保存时与 {where} 的连接在提交前断开了：这次没有保存</translation>
    </message>
    <message>
        <source>{path} is open in {holders}: close it there, then try again; nothing was changed</source>
        <translation>{path} 正在 {holders} 中打开：请先在那里关闭，再重试；没有做任何更改</translation>
    </message>
    <message>
        <source>{path} is open in another program (a MemDesk window, an MCP server, a command): close it, then try again; nothing was changed</source>
        <translation>{path} 正在另一个程序（MemDesk 窗口、MCP 服务器或命令）中打开：请先关闭它，再重试；没有做任何更改</translation>
    </message>
    <message>
        <source>{path} was written by a newer MemDesk (schema version {found}; this version reads up to {supported}); upgrade MemDesk to open it. The database was not changed</source>
        <translation>{path} 由更新版本的 MemDesk 写入（结构版本 {found}；此版本最多能读 {supported}）；请升级 MemDesk 后再打开。数据库没有被改动</translation>
    </message>
    <message>
        <source>{path} was written by a newer MemDesk (schema version {found}; this version reads up to {supported}); upgrade MemDesk to open it. The file was not changed</source>
        <translation>{path} 由更新版本的 MemDesk 写入（结构版本 {found}；此版本最多能读 {supported}）；请升级 MemDesk 后再打开。文件没有被改动</translation>
    </message>
    <message>
        <source>{where} cannot be opened: the server asks for a password</source>
        <translation>无法打开 {where}：服务器要求输入密码</translation>
    </message>
    <message>
        <source>{where} cannot be opened: wrong user name or password</source>
        <translation>无法打开 {where}：用户名或密码不正确</translation>
    </message>
    <message>
        <source>{where} cannot be opened: the server has no such database</source>
        <translation>无法打开 {where}：服务器上没有这个数据库</translation>
    </message>
    <message>
        <source>{where} cannot be opened: the server cannot be reached ({detail})</source>
        <translation>无法打开 {where}：连不上服务器（{detail}）</translation>
    </message>
    <message>
        <source>{where} cannot be opened: {detail}</source>
        <translation>无法打开 {where}：{detail}</translation>
    </message>
    <message>
        <source>the backup {name} is damaged too; choose another backup</source>
        <translation>备份 {name} 也已损坏；请选择另一个备份</translation>
    </message>
    <message>
        <source>there is no folder {path}</source>
        <translation>文件夹 {path} 不存在</translation>
    </message>
    <message>
        <source>the backup {name} could not be restored ({detail}); nothing was changed</source>
        <translation>无法恢复备份 {name}（{detail}）；没有做任何更改</translation>
    </message>
    <message>
        <source>the source database is in the middle of a save; try again</source>
        <translation>源数据库正在保存中；请稍后重试</translation>
    </message>
    <message>
        <source>the source and the target are the same database ({location})</source>
        <translation>源和目标是同一个数据库（{location}）</translation>
    </message>
    <message>
        <source>{target} is not empty ({listed}); copy into an empty database, or merge (what it has is kept)</source>
        <translation>{target} 不是空的（{listed}）；请复制到空数据库，或选择合并（其中已有的内容会保留）</translation>
    </message>
    <message>
        <source>the copy in {target} does not match {source} ({detail}); it was rolled back and the target is as it was</source>
        <translation>{target} 中的副本与 {source} 不一致（{detail}）；已回滚，目标保持原样</translation>
    </message>
    <message>
        <source>the merge into {target} did not add up ({detail}); it was rolled back</source>
        <translation>合并到 {target} 后数目对不上（{detail}）；已回滚</translation>
    </message>
    <message>
        <source>there is no export format {format}; use one of {formats}</source>
        <translation>没有导出格式 {format}；请使用以下之一：{formats}</translation>
    </message>
    <message>
        <source>{path} is a folder; give a file name</source>
        <translation>{path} 是文件夹；请给出文件名</translation>
    </message>
    <message>
        <source>cancelled; nothing was changed</source>
        <translation>已取消；没有做任何更改</translation>
    </message>
    <message>
        <source>building the search index was cancelled; it resumes where it stopped</source>
        <translation>搜索索引的建立已取消；下次会从停下的地方继续</translation>
    </message>
    <message>
        <source>building the search index was cancelled; the previous index is still used</source>
        <translation>搜索索引的建立已取消；仍使用之前的索引</translation>
    </message>
    <message>
        <source>embedding was cancelled after {done} of {total} memories; the finished ones are kept</source>
        <translation>向量计算已取消（{total} 条记忆中已完成 {done} 条）；已完成的会保留</translation>
    </message>
    <message>
        <source>the number of change-feed rows to keep must be a whole number of 0 or more</source>
        <translation>变更记录的保留行数必须是 0 或更大的整数</translation>
    </message>
    <message>
        <source>the days the trash keeps memories must be a whole number of 0 or more</source>
        <translation>回收站保留记忆的天数必须是 0 或更大的整数</translation>
    </message>
    <message>
        <source>there is no maintenance task {task}; the tasks are {tasks}</source>
        <translation>没有维护任务 {task}；可用的任务有：{tasks}</translation>
    </message>
    <message>
        <source>persona {key} was changed elsewhere after this step; nothing was changed</source>
        <translation>角色 {key} 在这一步之后已在别处被修改；没有做任何更改</translation>
    </message>
    <message>
        <source>tool call {key} was reverted or put back since; nothing was changed</source>
        <translation>工具调用 {key} 此后已被撤回或恢复；没有做任何更改</translation>
    </message>
    <message>
        <source>the setting {key} was changed elsewhere after this step; nothing was changed</source>
        <translation>设置 {key} 在这一步之后已在别处被修改；没有做任何更改</translation>
    </message>
    <message>
        <source>memory {key} “{title}” was changed elsewhere after this step; nothing was changed</source>
        <translation>记忆 {key}“{title}”在这一步之后已在别处被修改；没有做任何更改</translation>
    </message>
    <message>
        <source>memory {key} was changed elsewhere after this step; nothing was changed</source>
        <translation>记忆 {key} 在这一步之后已在别处被修改；没有做任何更改</translation>
    </message>
    <message>
        <source>the duplicate search</source>
        <translation>查找重复</translation>
    </message>
    <message>
        <source>optimizing</source>
        <translation>优化</translation>
    </message>
    <message>
        <source>the search index update</source>
        <translation>搜索索引更新</translation>
    </message>
    <message>
        <source>the consolidation</source>
        <translation>整合</translation>
    </message>
    <message>
        <source>the heat recomputation</source>
        <translation>热度重算</translation>
    </message>
    <message>
        <source>moving expired memories to the trash</source>
        <translation>把过期记忆移入回收站</translation>
    </message>
    <message>
        <source>emptying the trash</source>
        <translation>清空回收站</translation>
    </message>
    <message>
        <source>the task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>{task} was cancelled; nothing it did was kept</source>
        <translation>{task}已取消；它所做的更改都没有保留</translation>
    </message>
    <message>
        <source>there is no tokenizer.json (a model needs model.onnx and tokenizer.json)</source>
        <translation>找不到 tokenizer.json（模型需要 model.onnx 和 tokenizer.json）</translation>
    </message>
    <message>
        <source>there are several tokenizer.json files ({first}, {second}); install one model at a time</source>
        <translation>有多个 tokenizer.json 文件（{first}、{second}）；请一次只安装一个模型</translation>
    </message>
    <message>
        <source>it is not clear which ONNX file is the model (found: {found}); put the one you want next to tokenizer.json as model.onnx</source>
        <translation>无法判断哪个 ONNX 文件是模型（找到：{found}）；请把要用的那个放在 tokenizer.json 旁边，并命名为 model.onnx</translation>
    </message>
    <message>
        <source>{path} holds too many files to be a model folder</source>
        <translation>{path} 中的文件太多，不是模型文件夹</translation>
    </message>
    <message>
        <source>the archive {name} was refused ({detail}); nothing was installed</source>
        <translation>压缩包 {name} 被拒绝（{detail}）；没有安装任何东西</translation>
    </message>
    <message>
        <source>not enough free disk space in {path}: about {need} MB are needed, {free} MB are free</source>
        <translation>{path} 所在磁盘空间不足：需要约 {need} MB，只剩 {free} MB</translation>
    </message>
    <message>
        <source>{path} does not exist</source>
        <translation>{path} 不存在</translation>
    </message>
    <message>
        <source>the disk is full: the model could not be installed into {path}</source>
        <translation>磁盘已满：无法把模型安装到 {path}</translation>
    </message>
    <message>
        <source>{path} is already quantised ({quantization}); install it without int8</source>
        <translation>{path} 已经量化过（{quantization}）；请不选 int8 安装</translation>
    </message>
    <message>
        <source>a model named {model} is already installed; replace it or install this one under another name</source>
        <translation>已安装名为 {model} 的模型；请替换它，或用另一个名字安装这个模型</translation>
    </message>
    <message>
        <source>{path} is neither a folder nor a .zip archive</source>
        <translation>{path} 既不是文件夹，也不是 .zip 压缩包</translation>
    </message>
    <message>
        <source>the disk is full while unpacking {path}</source>
        <translation>解压 {path} 时磁盘已满</translation>
    </message>
    <message>
        <source>{path} cannot be read ({detail})</source>
        <translation>无法读取 {path}（{detail}）</translation>
    </message>
    <message>
        <source>the model fails on a test sentence ({detail})</source>
        <translation>模型处理测试句子时出错（{detail}）</translation>
    </message>
    <message>
        <source>the model gives invalid (not finite) numbers for a test sentence</source>
        <translation>模型对测试句子给出了无效的数值（非有限数）</translation>
    </message>
    <message>
        <source>{path} could not be replaced ({detail}); is MemDesk using it?</source>
        <translation>无法替换 {path}（{detail}）；是否有 MemDesk 正在使用它？</translation>
    </message>
    <message>
        <source>int8 quantisation needs the onnx package (pip install onnx); install without int8 to use the model as it is</source>
        <translation>int8 量化需要 onnx 包（pip install onnx）；不选 int8 安装即可按原样使用模型</translation>
    </message>
    <message>
        <source>{path} could not be quantised to int8 ({detail})</source>
        <translation>无法把 {path} 量化为 int8（{detail}）</translation>
    </message>
    <message>
        <source>{model} cannot be a model name: use 1-64 letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;, starting with a letter or digit</source>
        <translation>{model} 不能用作模型名：请使用 1 到 64 个字母、数字、“.”、“_”或“-”，并以字母或数字开头</translation>
    </message>
    <message>
        <source>the settings of {where} are not usable ({detail})</source>
        <translation>{where} 的设置不可用（{detail}）</translation>
    </message>
    <message>
        <source>{path} is not a readable JSON file ({detail})</source>
        <translation>{path} 不是可读取的 JSON 文件（{detail}）</translation>
    </message>
    <message>
        <source>{path} must hold a JSON object</source>
        <translation>{path} 中应当是一个 JSON 对象</translation>
    </message>
    <message>
        <source>{path} was written by a newer MemDesk (format {version})</source>
        <translation>{path} 由更新版本的 MemDesk 写入（格式 {version}）</translation>
    </message>
    <message>
        <source>{path} lacks {keys}</source>
        <translation>{path} 缺少 {keys}</translation>
    </message>
    <message>
        <source>{path} is not a usable ONNX model ({detail})</source>
        <translation>{path} 不是可用的 ONNX 模型（{detail}）</translation>
    </message>
    <message>
        <source>{path} is not a usable tokenizer.json ({detail})</source>
        <translation>{path} 不是可用的 tokenizer.json（{detail}）</translation>
    </message>
    <message>
        <source>model.onnx is not a BERT-style encoder MemDesk can use: its inputs are {inputs}; expected input_ids (+ attention_mask, token_type_ids)</source>
        <translation>model.onnx 不是 MemDesk 能使用的 BERT 类编码器：它的输入是 {inputs}；应为 input_ids（以及 attention_mask、token_type_ids）</translation>
    </message>
    <message>
        <source>model.onnx has no output of token vectors (like last_hidden_state) to pool</source>
        <translation>model.onnx 没有可供池化的词元向量输出（如 last_hidden_state）</translation>
    </message>
    <message>
        <source>{path} is not a model folder: {file} is missing</source>
        <translation>{path} 不是模型文件夹：缺少 {file}</translation>
    </message>
    <message>
        <source>{path}: model.onnx gives {found}-dimensional vectors but its settings say {expected}; reinstall the model</source>
        <translation>{path}：model.onnx 输出 {found} 维向量，但它的设置写的是 {expected} 维；请重新安装该模型</translation>
    </message>
    <message>
        <source>the model {model} should give {expected}-dimensional vectors but model.onnx gives {found}; is this the right model file?</source>
        <translation>模型 {model} 应输出 {expected} 维向量，但 model.onnx 输出 {found} 维；这是正确的模型文件吗？</translation>
    </message>
    <message>
        <source>it is not known how to pool the token vectors of the model {model} (it has no memdesk-model.json and MemDesk does not know its name); choose cls pooling (bge models) or mean pooling (sentence-transformers models)</source>
        <translation>不知道如何对模型 {model} 的词元向量做池化（没有 memdesk-model.json，MemDesk 也不认识它的名字）；请选择 cls 池化（bge 模型）或 mean 池化（sentence-transformers 模型）</translation>
    </message>
    <message>
        <source>no model named {model} is installed</source>
        <translation>没有安装名为 {model} 的模型</translation>
    </message>
    <message>
        <source>the model {model} cannot be used ({detail}); reinstall it</source>
        <translation>模型 {model} 无法使用（{detail}）；请重新安装</translation>
    </message>
    <message>
        <source>the model {model} cannot be used ({detail})</source>
        <translation>模型 {model} 无法使用（{detail}）</translation>
    </message>
    <message>
        <source>the model {model} could not be removed ({detail}); is MemDesk using it?</source>
        <translation>无法删除模型 {model}（{detail}）；是否有 MemDesk 正在使用它？</translation>
    </message>
    <message>
        <source>the memory was saved, but the model {model} failed on it ({detail})</source>
        <translation>记忆已保存，但模型 {model} 处理它时出错（{detail}）</translation>
    </message>
    <message>
        <source>there is no known model {model}; the known ones are {known}</source>
        <translation>没有名为 {model} 的已知模型；已知的有：{known}</translation>
    </message>
    <message>
        <source>a model named {model} is already installed; remove it first</source>
        <translation>已安装名为 {model} 的模型；请先删除它</translation>
    </message>
    <message>
        <source>{text} is not a hub address; give one like https://hf-mirror.com</source>
        <translation>{text} 不是模型库地址；请填写类似 https://hf-mirror.com 的地址</translation>
    </message>
    <message>
        <source>the model hub refused the request: {url} answered {status} {reason}</source>
        <translation>模型库拒绝了请求：{url} 返回 {status} {reason}</translation>
    </message>
    <message>
        <source>the model hub has no such file: {url} answered {status} {reason} (wrong name or revision?)</source>
        <translation>模型库上没有这个文件：{url} 返回 {status} {reason}（名称或版本写错了？）</translation>
    </message>
    <message>
        <source>cannot reach {host} ({detail}); check the network, or choose a mirror such as https://hf-mirror.com</source>
        <translation>无法连接 {host}（{detail}）；请检查网络，或选择镜像，例如 https://hf-mirror.com</translation>
    </message>
    <message>
        <source>{url} did not answer with the hub&apos;s file listing</source>
        <translation>{url} 返回的不是模型库的文件列表</translation>
    </message>
    <message>
        <source>{repo}@{revision} has no {files} on {hub}</source>
        <translation>{hub} 上的 {repo}@{revision} 没有 {files}</translation>
    </message>
    <message>
        <source>the hub gives no checksum for {file}; an unverified download is refused</source>
        <translation>模型库没有提供 {file} 的校验和；不进行未经校验的下载</translation>
    </message>
    <message>
        <source>{file} does not match its checksum ({detail}); it was deleted and nothing was installed. Try again, or use another mirror</source>
        <translation>{file} 与校验和不符（{detail}）；已删除，没有安装任何东西。请重试，或换一个镜像</translation>
    </message>
    <message>
        <source>the disk is full: the download of {file} stopped at {mb} MB in {path}; free some space and download again to resume</source>
        <translation>磁盘已满：{file} 下载到 {mb} MB 时在 {path} 中停止；请腾出空间后再次下载以继续</translation>
    </message>
    <message>
        <source>the download of {file} stopped at {mb} MB ({detail}); download again to resume</source>
        <translation>{file} 下载到 {mb} MB 时中断（{detail}）；再次下载即可继续</translation>
    </message>
    <message>
        <source>the download of {file} stopped at {have} of {size} bytes; download again to resume</source>
        <translation>{file} 只下载了 {size} 字节中的 {have} 字节；再次下载即可继续</translation>
    </message>
    <message>
        <source>the download was paused; download again to resume</source>
        <translation>下载已暂停；再次下载即可继续</translation>
    </message>
    <message>
        <source>{name} cannot be read ({detail})</source>
        <translation>无法读取 {name}（{detail}）</translation>
    </message>
    <message>
        <source>{name}: the header row cannot be read ({detail})</source>
        <translation>{name}：无法读取标题行（{detail}）</translation>
    </message>
    <message>
        <source>{name} is empty; a CSV file starts with a header row</source>
        <translation>{name} 是空的；CSV 文件应以标题行开头</translation>
    </message>
    <message>
        <source>{name} has no content column (content, memory or text) in its header row</source>
        <translation>{name} 的标题行里没有内容列（content、memory 或 text）</translation>
    </message>
    <message>
        <source>{name}: row {row} cannot be read ({detail})</source>
        <translation>{name}：无法读取第 {row} 行（{detail}）</translation>
    </message>
    <message>
        <source>{name}: “{key}” must be a list</source>
        <translation>{name}：“{key}”必须是列表</translation>
    </message>
    <message>
        <source>{name}: no line is valid JSON; MemDesk expected the MCP memory server&apos;s JSON Lines</source>
        <translation>{name}：没有一行是有效的 JSON；应为 MCP 记忆服务器的 JSON Lines 文件</translation>
    </message>
    <message>
        <source>{name} was refused ({detail})</source>
        <translation>{name} 被拒绝（{detail}）</translation>
    </message>
    <message>
        <source>{name} is a damaged zip archive ({detail})</source>
        <translation>{name} 是损坏的 zip 压缩包（{detail}）</translation>
    </message>
    <message>
        <source>{name} holds damaged gzip data ({detail})</source>
        <translation>{name} 中的 gzip 数据已损坏（{detail}）</translation>
    </message>
    <message>
        <source>{name} is a zip archive but not an OpenMemory export (it has no memories.json)</source>
        <translation>{name} 是 zip 压缩包，但不是 OpenMemory 导出文件（里面没有 memories.json）</translation>
    </message>
    <message>
        <source>{name}: a file inside is not UTF-8 text (a bad byte at offset {offset})</source>
        <translation>{name}：其中的文件不是 UTF-8 文本（偏移 {offset} 处有错误字节）</translation>
    </message>
    <message>
        <source>{name} cannot be read as an SQLite database ({detail})</source>
        <translation>无法把 {name} 当作 SQLite 数据库读取（{detail}）</translation>
    </message>
    <message>
        <source>{name} is not an SQLite database; blockcell keeps its memories in memory.db (an SQLite file)</source>
        <translation>{name} 不是 SQLite 数据库；blockcell 的记忆保存在 memory.db（一个 SQLite 文件）中</translation>
    </message>
    <message>
        <source>{name} has no memory_items table: it is not a blockcell memory database</source>
        <translation>{name} 中没有 memory_items 表：它不是 blockcell 的记忆数据库</translation>
    </message>
    <message>
        <source>{name}: the memory_items table lacks an id or content column</source>
        <translation>{name}：memory_items 表缺少 id 或 content 列</translation>
    </message>
    <message>
        <source>{name}: the memory_items table cannot be read ({detail})</source>
        <translation>{name}：无法读取 memory_items 表（{detail}）</translation>
    </message>
    <message>
        <source>the database refused the import ({detail}); nothing was written</source>
        <translation>数据库拒绝了这次导入（{detail}）；没有写入任何内容</translation>
    </message>
</context>
<context>
    <name>ReportWords</name>
    <message>
        <source>Expired memories</source>
        <translation>过期的记忆</translation>
    </message>
    <message>
        <source>Emptying the trash</source>
        <translation>清理回收站</translation>
    </message>
    <message>
        <source>Exact duplicates</source>
        <translation>完全重复</translation>
    </message>
    <message>
        <source>Merge proposals</source>
        <translation>合并建议</translation>
    </message>
    <message>
        <source>Heat and tiers</source>
        <translation>热度与层级</translation>
    </message>
    <message>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <source>Vectors for meaning search</source>
        <translation>语义搜索的向量</translation>
    </message>
    <message>
        <source>Search index</source>
        <translation>搜索索引</translation>
    </message>
    <message>
        <source>Change log</source>
        <translation>变更记录</translation>
    </message>
    <message>
        <source>Database file</source>
        <translation>数据库文件</translation>
    </message>
    <message>
        <source>Not run: the run was cancelled</source>
        <translation>未运行：本次整理已取消</translation>
    </message>
    <message>
        <source>Not needed: no embedding model is in use</source>
        <translation>无需运行：没有使用嵌入模型</translation>
    </message>
    <message>
        <source>Not run</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>Cancelled; what it had done was undone</source>
        <translation>已取消，已做的改动已撤回</translation>
    </message>
    <message>
        <source>Failed: {message}</source>
        <translation>失败：{message}</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message numerus="yes">
        <source>%n expired short-term memories moved to the trash</source>
        <translation>
            <numerusform>%n 条过期的短期记忆已移到回收站</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n memories deleted for good after their days in the trash</source>
        <translation>
            <numerusform>%n 条在回收站放满期限的记忆已永久删除</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n groups of memories with the same text</source>
        <translation>
            <numerusform>%n 组内容完全相同的记忆</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n merge proposals to review</source>
        <translation>
            <numerusform>%n 条合并建议待查看</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Heat recomputed for %n memories</source>
        <translation>
            <numerusform>重新计算了 %n 条记忆的热度</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n moved to another tier</source>
        <translation>
            <numerusform>%n 条换了层级</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Importance estimated again for %n memories</source>
        <translation>
            <numerusform>重新评估了 %n 条记忆的重要性</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n changed</source>
        <translation>
            <numerusform>%n 条有变化</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Vectors computed for %n memories</source>
        <translation>
            <numerusform>为 %n 条记忆计算了向量</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n memories brought up to date in the index</source>
        <translation>
            <numerusform>索引中更新了 %n 条记忆</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n old entries removed</source>
        <translation>
            <numerusform>删除了 %n 条旧记录</numerusform>
        </translation>
    </message>
    <message>
        <source>Compacted and checked</source>
        <translation>已压缩并检查</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>less than 0.1 s</source>
        <translation>不到 0.1 秒</translation>
    </message>
    <message>
        <source>{seconds} s</source>
        <translation>{seconds} 秒</translation>
    </message>
    <message>
        <source>Maintenance has not run on this database yet.</source>
        <translation>这个数据库还没有整理过。</translation>
    </message>
    <message>
        <source>Started {when}, took {seconds}.</source>
        <translation>开始于 {when}，用时 {seconds}。</translation>
    </message>
    <message numerus="yes">
        <source>{when}: %n of {total} tasks done</source>
        <translation>
            <numerusform>{when}：{total} 项任务中完成了 %n 项</numerusform>
        </translation>
    </message>
    <message>
        <source> (failed: {names})</source>
        <translation>（失败：{names}）</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
</context>
<context>
    <name>ReviewInboxDialog</name>
    <message>
        <source>Review duplicates</source>
        <translation>待合并的相似记忆</translation>
    </message>
    <message>
        <source>Merged memory</source>
        <translation>合并后的记忆</translation>
    </message>
    <message>
        <source>Title:</source>
        <translation>标题：</translation>
    </message>
    <message>
        <source>Content:</source>
        <translation>内容：</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>合并</translation>
    </message>
    <message>
        <source>Save the merged text as one memory; the originals are superseded by it and keep their history.</source>
        <translation>把合并后的文本保存为一条记忆；原记忆被它取代，并保留历史。</translation>
    </message>
    <message>
        <source>Keep both</source>
        <translation>都保留</translation>
    </message>
    <message>
        <source>These are different memories: never propose them again.</source>
        <translation>这些是不同的记忆：以后不再建议合并。</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>忽略</translation>
    </message>
    <message>
        <source>Not now: a later run may propose them again.</source>
        <translation>暂不处理：以后的整理可能再次提出。</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Proposals</source>
        <translation>合并建议</translation>
    </message>
    <message>
        <source>Last maintenance run</source>
        <translation>上次整理</translation>
    </message>
    <message numerus="yes">
        <source>%n proposals to review</source>
        <translation>
            <numerusform>%n 条建议待查看</numerusform>
        </translation>
    </message>
    <message>
        <source>Persona: {persona} · Tags: {tags} · Updated: {when}</source>
        <translation>角色：{persona} · 标签：{tags} · 更新于 {when}</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>Compared with “{title}”: struck through = only there, green = only here</source>
        <translation>与“{title}”比较：划掉的只在那条里，绿色的只在这条里</translation>
    </message>
    <message numerus="yes">
        <source>Merge %n memories</source>
        <translation>
            <numerusform>合并 %n 条记忆</numerusform>
        </translation>
    </message>
    <message>
        <source>Global</source>
        <translation>全局</translation>
    </message>
    <message>
        <source>A memory was edited after this was proposed; look again before merging.</source>
        <translation>提出建议后有记忆被修改过，合并前请再看一遍。</translation>
    </message>
    <message>
        <source>The merged memory needs some text.</source>
        <translation>合并后的记忆不能为空。</translation>
    </message>
    <message>
        <source>A memory was edited after this was proposed. Merge anyway?</source>
        <translation>提出建议后有记忆被修改过。仍要合并吗？</translation>
    </message>
</context>
<context>
    <name>SearchBar</name>
    <message>
        <source>Search memories (Ctrl+F) — words, &quot;phrases&quot;, tag:work, -exclude</source>
        <translation>搜索记忆 (Ctrl+F) — 词语、&quot;短语&quot;、标签:工作、-排除</translation>
    </message>
    <message>
        <source>Search as you type. Click ? next to the box for the search syntax.</source>
        <translation>边输入边搜索。点搜索框旁的 ? 查看搜索语法。</translation>
    </message>
    <message>
        <source>Search syntax, with an example of each operator</source>
        <translation>搜索语法：每种写法都有示例</translation>
    </message>
    <message>
        <source>Save this search in the tree</source>
        <translation>将这个搜索保存到记忆树中</translation>
    </message>
</context>
<context>
    <name>SearchNotice</name>
    <message numerus="yes">
        <source>%n not yet searchable by meaning</source>
        <translation>
            <numerusform>%n 条还不能按意思搜索</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n memories are still being prepared for semantic search; until then only their words find them.</source>
        <translation>
            <numerusform>%n 条记忆还在为语义搜索做准备；在此之前只能按字词找到它们。</numerusform>
        </translation>
    </message>
    <message>
        <source>Words only (Settings → Model)</source>
        <translation>只按字词搜索（设置 → 模型）</translation>
    </message>
    <message>
        <source>Search finds memories by their words. Searching by meaning needs a model: Settings → Model.</source>
        <translation>现在按字词找记忆。按意思搜索需要一个模型：设置 → 模型。</translation>
    </message>
    <message>
        <source>Preparing semantic search…</source>
        <translation>正在准备语义搜索…</translation>
    </message>
    <message>
        <source>The memories are being prepared for semantic search; until then only their words find them.</source>
        <translation>正在为语义搜索准备记忆；在此之前只能按字词找到它们。</translation>
    </message>
    <message>
        <source>Words only: the model cannot be used</source>
        <translation>只按字词搜索：模型无法使用</translation>
    </message>
    <message>
        <source>The semantic search model cannot be used; search finds memories by their words. See Settings → Model.</source>
        <translation>语义搜索的模型无法使用；现在按字词找记忆。请看 设置 → 模型。</translation>
    </message>
</context>
<context>
    <name>SemanticOffer</name>
    <message>
        <source>Turn on semantic search, so that “coffee” also finds 咖啡 and similar wordings find each other? It needs the bge-small-zh model (about 95 MB), kept on this computer.</source>
        <translation>开启语义搜索？开启后，意思相近的说法也能互相找到（搜“拿铁”能找到“咖啡”）。需要下载中文语义模型（约 95 MB），只保存在本机。</translation>
    </message>
    <message>
        <source>Download the model</source>
        <translation>下载模型</translation>
    </message>
    <message>
        <source>Install or choose a mirror…</source>
        <translation>从文件安装或选择镜像…</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>以后再说</translation>
    </message>
    <message>
        <source>Don&apos;t ask again</source>
        <translation>不再提示</translation>
    </message>
</context>
<context>
    <name>ServerDialog</name>
    <message>
        <source>Open server database</source>
        <translation>打开服务器数据库</translation>
    </message>
    <message>
        <source>A PostgreSQL database, as a URL. Add ?sslmode=require for a server on another machine. A password is taken from PGPASSWORD, ~/.pgpass or a service file; if the server still asks for one, MemDesk asks you.</source>
        <translation>以 URL 形式填写 PostgreSQL 数据库。服务器在另一台机器上时，请加上 ?sslmode=require。密码取自 PGPASSWORD、~/.pgpass 或服务文件；如果服务器仍要求密码，MemDesk 会询问你。</translation>
    </message>
    <message>
        <source>Server URL:</source>
        <translation>服务器 URL：</translation>
    </message>
    <message>
        <source>Write it as postgresql://user@host:port/database</source>
        <translation>请写成 postgresql://用户@主机:端口/数据库</translation>
    </message>
</context>
<context>
    <name>Session</name>
    <message>
        <source>Could not undo “{step}”:</source>
        <translation>无法撤销“{step}”：</translation>
    </message>
    <message>
        <source>Could not redo “{step}”:</source>
        <translation>无法重做“{step}”：</translation>
    </message>
    <message>
        <source>The step stays in the undo history: it works again once the memory is as the step left it.</source>
        <translation>这一步仍保留在撤销记录中：记忆恢复到这一步留下的样子后即可再次执行。</translation>
    </message>
    <message>
        <source>The step is no longer in the undo history.</source>
        <translation>这一步已不在撤销记录中。</translation>
    </message>
    <message>
        <source>The database {where} no longer exists on the server (it was dropped or renamed). Nothing more can be saved to it; what you have not saved stays open. Open another database, or create it again and copy or import a backup into it.</source>
        <translation>服务器上已没有数据库 {where}（已被删除或改名）。无法再向它保存任何内容；尚未保存的内容仍保留在窗口中。请打开另一个数据库，或重新创建它，再把备份复制或导入进去。</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Maintenance</source>
        <translation>维护</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Same as the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Open another…</source>
        <translation>打开其他…</translation>
    </message>
    <message>
        <source>New…</source>
        <translation>新建…</translation>
    </message>
    <message>
        <source>Database file</source>
        <translation>数据库文件</translation>
    </message>
    <message>
        <source>How the final score of a search hit is made up (they need not sum to 1).</source>
        <translation>搜索结果最终得分的构成（各项之和不必为 1）。</translation>
    </message>
    <message>
        <source>Relevance (words and meaning)</source>
        <translation>相关性（字词与语义）</translation>
    </message>
    <message>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <source>Heat (recent use)</source>
        <translation>热度（最近使用）</translation>
    </message>
    <message>
        <source>Freshness (recently changed)</source>
        <translation>新鲜度（最近修改）</translation>
    </message>
    <message>
        <source>Defaults</source>
        <translation>恢复默认</translation>
    </message>
    <message>
        <source>Never on its own</source>
        <translation>不自动运行</translation>
    </message>
    <message>
        <source>Each time MemDesk starts</source>
        <translation>每次启动记忆台时</translation>
    </message>
    <message>
        <source>Once a day</source>
        <translation>每天一次</translation>
    </message>
    <message>
        <source>Once a week</source>
        <translation>每周一次</translation>
    </message>
    <message>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <source>Run maintenance now</source>
        <translation>立即运行维护</translation>
    </message>
    <message>
        <source>Run maintenance</source>
        <translation>运行维护</translation>
    </message>
    <message>
        <source>Empty trash after</source>
        <translation>回收站保留</translation>
    </message>
    <message>
        <source>Last run</source>
        <translation>上次运行</translation>
    </message>
    <message>
        <source>MemDesk database (*.db);;All files (*)</source>
        <translation>记忆台数据库 (*.db);;所有文件 (*)</translation>
    </message>
    <message>
        <source>New database</source>
        <translation>新建数据库</translation>
    </message>
    <message>
        <source>Open database</source>
        <translation>打开数据库</translation>
    </message>
</context>
<context>
    <name>StateBanner</name>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>This memory is in the trash.</source>
        <translation>这条记忆在回收站中。</translation>
    </message>
    <message>
        <source>This memory was replaced by a newer one (see the supersede chain).</source>
        <translation>这条记忆已被新的记忆取代（见“取代链”）。</translation>
    </message>
    <message>
        <source>This memory has expired; assistants no longer receive it.</source>
        <translation>这条记忆已过期，助手不会再收到它。</translation>
    </message>
</context>
<context>
    <name>StatisticsDialog</name>
    <message>
        <source>Statistics</source>
        <translation>统计</translation>
    </message>
    <message>
        <source>Counting…</source>
        <translation>正在统计…</translation>
    </message>
    <message>
        <source>By persona</source>
        <translation>按角色</translation>
    </message>
    <message>
        <source>Largest groups</source>
        <translation>最大的分组</translation>
    </message>
    <message>
        <source>Top tags</source>
        <translation>最常用的标签</translation>
    </message>
    <message>
        <source>By type</source>
        <translation>按类型</translation>
    </message>
    <message>
        <source>By scope</source>
        <translation>按范围</translation>
    </message>
    <message>
        <source>By tier</source>
        <translation>按层级</translation>
    </message>
    <message>
        <source>Heat</source>
        <translation>热度</translation>
    </message>
    <message>
        <source>Added per week (last year): manual, assistant, import</source>
        <translation>每周新增（近一年）：手动、助手、导入</translation>
    </message>
    <message>
        <source>manual</source>
        <translation>手动</translation>
    </message>
    <message>
        <source>assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Charts count memories in use (not in the trash, expired or superseded). Click a bar to list those memories.</source>
        <translation>图表统计使用中的记忆（不含回收站、已过期和已被取代的）。点击柱形即可列出这些记忆。</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Counting</source>
        <translation>统计</translation>
    </message>
    <message>
        <source>{active} memories in use · {total} in the store · {personas} personas · {groups} groups</source>
        <translation>使用中 {active} 条记忆 · 库中共 {total} 条 · {personas} 个角色 · {groups} 个分组</translation>
    </message>
    <message>
        <source>Global</source>
        <translation>全局</translation>
    </message>
</context>
<context>
    <name>SyntaxHelpDialog</name>
    <message>
        <source>Search syntax</source>
        <translation>搜索语法</translation>
    </message>
    <message>
        <source>Type words to find memories that contain any of them, best first. Combine them with the operators below; click an example to try it.</source>
        <translation>输入词语，即可找到包含其中任意一个词的记忆，最相关的排在最前。可以用下面的写法组合条件；点击示例即可试用。</translation>
    </message>
    <message>
        <source>Words</source>
        <translation>词语</translation>
    </message>
    <message>
        <source>Memories with 咖啡 or 过敏 (or both), the best match first</source>
        <translation>包含“咖啡”或“过敏”（或两者都有）的记忆，最相关的排在最前</translation>
    </message>
    <message>
        <source>Quotation marks: exactly these characters, in this order</source>
        <translation>加引号：必须按原样、按顺序出现这些字</translation>
    </message>
    <message>
        <source>A minus sign: leave out memories that contain 茶</source>
        <translation>加减号：排除包含“茶”的记忆</translation>
    </message>
    <message>
        <source>OR in capitals: either one (words without OR are ranked together)</source>
        <translation>大写的 OR：满足其中之一即可（不写 OR 的词一起参与排序）</translation>
    </message>
    <message>
        <source>Brackets group a part of the query</source>
        <translation>括号把一部分条件归为一组</translation>
    </message>
    <message>
        <source>Where a memory belongs</source>
        <translation>记忆的归属</translation>
    </message>
    <message>
        <source>Memories of one persona</source>
        <translation>某个角色的记忆</translation>
    </message>
    <message>
        <source>In a group (and the groups inside it)</source>
        <translation>某个分组（及其子分组）中的记忆</translation>
    </message>
    <message>
        <source>With a tag</source>
        <translation>带某个标签</translation>
    </message>
    <message>
        <source>Without a tag: a minus sign works before every filter</source>
        <translation>不带某个标签：每种筛选前都可以加减号</translation>
    </message>
    <message>
        <source>What kind of memory</source>
        <translation>记忆的种类</translation>
    </message>
    <message>
        <source>Type: fact, preference, project, task or note</source>
        <translation>类型：fact 事实、preference 偏好、project 项目、task 任务、note 笔记</translation>
    </message>
    <message>
        <source>Short-term memories (scope:long_term for long-term ones)</source>
        <translation>短期记忆（长期记忆用 scope:long_term）</translation>
    </message>
    <message>
        <source>Tier by recent use: hot, warm, cold or archive</source>
        <translation>按最近使用分的层级：hot 热、warm 温、cold 冷、archive 归档</translation>
    </message>
    <message>
        <source>Importance 7 or more (also &gt;, &lt;, &lt;=, =)</source>
        <translation>重要性不低于 7（也可用 &gt;、&lt;、&lt;=、=）</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>In the trash</source>
        <translation>在回收站中</translation>
    </message>
    <message>
        <source>Expired short-term memories</source>
        <translation>已过期的短期记忆</translation>
    </message>
    <message>
        <source>Replaced by a newer memory</source>
        <translation>已被更新的记忆取代</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Added after May 2024 (a year, month or day)</source>
        <translation>2024 年 5 月之后添加（可写到年、月或日）</translation>
    </message>
    <message>
        <source>Changed within the last 7 days (d days, w weeks, m months, y years)</source>
        <translation>最近 7 天内修改过（d 天、w 周、m 月、y 年）</translation>
    </message>
    <message>
        <source>One memory</source>
        <translation>某一条记忆</translation>
    </message>
    <message>
        <source>The memory whose id starts like this</source>
        <translation>编号以此开头的记忆</translation>
    </message>
    <message>
        <source>Every filter has an English and a Chinese name, and its values are accepted in either language: type:偏好 and 类型:preference work too. A filter with a value it does not know (类型:不存在) is not searched for as words: the search box says what is wrong and where.</source>
        <translation>每个筛选条件都有英文和中文两种写法，取值也可以用任一种语言：type:偏好 和 类型:preference 同样有效。筛选条件的取值无法识别时（如 类型:不存在），不会被当作普通词语搜索：搜索框会指出错在哪里、错在什么。</translation>
    </message>
    <message>
        <source>Full-width characters（：＂－）work as well as their half-width forms, and 「」 or “” quote too. A query that cannot be read is marked red; its tooltip names the place.</source>
        <translation>全角符号（：＂－）和半角一样可用，「」和“”也可以当引号。写错的搜索会标红，鼠标停在搜索框上会提示出错的位置。</translation>
    </message>
</context>
<context>
    <name>TablePane</name>
    <message numerus="yes">
        <source>{place} · %n memories</source>
        <translation>
            <numerusform>{place} · %n 条记忆</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot read the search: {error}</source>
        <translation>无法理解这个搜索：{error}</translation>
    </message>
    <message>
        <source>Nothing found. Esc clears the search.</source>
        <translation>没有找到。按 Esc 清除搜索。</translation>
    </message>
    <message numerus="yes">
        <source>%n found, {shown} shown (more as you scroll) · Esc clears the search</source>
        <translation>
            <numerusform>找到 %n 条，已显示 {shown} 条（向下滚动显示更多）· 按 Esc 清除搜索</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n found · Esc clears the search</source>
        <translation>
            <numerusform>找到 %n 条 · 按 Esc 清除搜索</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ToolCallModel</name>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Persona</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Client</source>
        <translation>客户端</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Reverted at {when}</source>
        <translation>撤销于 {when}</translation>
    </message>
    <message>
        <source>Failed: {reason}</source>
        <translation>失败：{reason}</translation>
    </message>
    <message>
        <source>no reason was given</source>
        <translation>没有给出原因</translation>
    </message>
    <message>
        <source>read only, changed nothing</source>
        <translation>只读取，没有改动</translation>
    </message>
    <message>
        <source>Reverted</source>
        <translation>已撤销</translation>
    </message>
    <message>
        <source>What it did, or why it failed</source>
        <translation>做了什么 / 失败原因</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Save or update</source>
        <translation>保存或更新</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Forget</source>
        <translation>忘记</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Look up</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>List</source>
        <translation>列出</translation>
    </message>
    <message>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>updated</source>
        <translation>更新</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>restored</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>an MCP client</source>
        <translation>MCP 客户端</translation>
    </message>
    <message>
        <source>command line</source>
        <translation>命令行</translation>
    </message>
    <message>
        <source>this window</source>
        <translation>本窗口</translation>
    </message>
    <message>
        <source>a memory since purged</source>
        <translation>已永久删除的记忆</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>成功</translation>
    </message>
</context>
<context>
    <name>ToolLogDialog</name>
    <message>
        <source>Assistant activity</source>
        <translation>助手操作记录</translation>
    </message>
    <message>
        <source>Revert this call</source>
        <translation>撤销此操作</translation>
    </message>
    <message>
        <source>Undo what this assistant call did. Memories changed since are never overwritten.</source>
        <translation>撤销这次助手调用所做的改动。之后又被修改过的记忆不会被覆盖。</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Global</source>
        <translation>全局</translation>
    </message>
    <message numerus="yes">
        <source>%n recent calls</source>
        <translation>
            <numerusform>最近 %n 次调用</numerusform>
        </translation>
    </message>
    <message>
        <source>{tool} as {persona} ({client}), {when}: {what}</source>
        <translation>{tool}，以「{persona}」身份（{client}），{when}：{what}</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Could not revert this call: {error}</source>
        <translation>无法撤销此操作：{error}</translation>
    </message>
    <message>
        <source>Revert assistant call {n}</source>
        <translation>撤销助手调用 {n}</translation>
    </message>
</context>
<context>
    <name>TreeModel</name>
    <message>
        <source>Personas</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Groups</source>
        <translation>分组</translation>
    </message>
    <message>
        <source>Types</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Tiers</source>
        <translation>层级</translation>
    </message>
    <message>
        <source>Saved searches</source>
        <translation>已保存的搜索</translation>
    </message>
    <message>
        <source>Expired and superseded</source>
        <translation>已过期与已取代</translation>
    </message>
    <message>
        <source>Trash</source>
        <translation>回收站</translation>
    </message>
    <message>
        <source>(untitled)</source>
        <translation>（无标题）</translation>
    </message>
    <message>
        <source>(no group)</source>
        <translation>未分组</translation>
    </message>
    <message>
        <source>Global</source>
        <translation>全局</translation>
    </message>
    <message>
        <source>Group: {group}</source>
        <translation>分组：{group}</translation>
    </message>
    <message>
        <source>Global memory: every persona sees it</source>
        <translation>全局记忆：所有角色都能看到</translation>
    </message>
</context>
<context>
    <name>TreePane</name>
    <message>
        <source>Loading memories</source>
        <translation>正在载入记忆</translation>
    </message>
</context>
</TS>
