import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORDS, passwordFault } from '../../shared/domain/passwords';

describe('a chosen password (issue 54)', () => {
  it('refuses common passwords without regard to case, only digits, one repeated character and the e-mail address', () => {
    expect(passwordFault('12345678')).toBe('common');
    expect(passwordFault('PassWord1')).toBe('common');
    expect(passwordFault('Contraseña')).toBe('common');
    expect(passwordFault('20240917')).toBe('digits');
    expect(passwordFault('aaaaaaaaaa')).toBe('repeated');
    expect(passwordFault('ines.invitada', 'Ines.Invitada@demo.example')).toBe('email');
    expect(passwordFault('ines.invitada@demo.example', 'ines.invitada@demo.example')).toBe('email');
    expect(passwordFault('corta')).toBe('short');
    expect(COMMON_PASSWORDS.size).toBeGreaterThanOrEqual(100);
  });

  it('accepts what the tests and people choose: long enough and none of the above', () => {
    for (const password of ['una-clave-larga', 'la-clave-de-bea', 'clave-segura-1', 'ines.invitada.2024']) expect(passwordFault(password, 'ines.invitada@demo.example'), password).toBeUndefined();
  });
});
