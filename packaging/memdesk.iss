; Inno Setup script for the Windows installer. Built by the CI workflow after
; `pyinstaller packaging/memdesk.spec`:  iscc /DAppVersion=X.Y.Z packaging\memdesk.iss
#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif

[Setup]
AppId={{5C1E9B1A-3F7D-4B7E-9E0A-6D2C8A4F1B21}
AppName=MemDesk 记忆台
AppVersion={#AppVersion}
AppPublisher=MemDesk
DefaultDirName={autopf}\MemDesk
DefaultGroupName=MemDesk
OutputDir=..\dist
OutputBaseFilename=MemDesk-{#AppVersion}-windows-setup
SetupIconFile=..\resources\icons\memdesk.ico
UninstallDisplayIcon={app}\memdesk.exe
Compression=lzma2
SolidCompression=yes
ArchitecturesInstallIn64BitMode=x64compatible
PrivilegesRequiredOverridesAllowed=dialog

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"

[Files]
Source: "..\dist\memdesk\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\MemDesk 记忆台"; Filename: "{app}\memdesk.exe"
Name: "{autodesktop}\MemDesk 记忆台"; Filename: "{app}\memdesk.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\memdesk.exe"; Description: "{cm:LaunchProgram,MemDesk}"; Flags: nowait postinstall skipifsilent
